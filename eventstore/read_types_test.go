package eventstore_test

import (
	"context"
	"testing"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// TestReadTypesDataIn reads only the asked types, a limit at a time, and
// says how far it read: past the other types' events to the horizon when
// fewer than the limit were found, to the last one found otherwise.
func TestReadTypesDataIn(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	ctx := context.Background()
	// Positions 1..6: A B A B B A, then a stream of B only (7, 8).
	if _, err := appendTx(t, s, "s-1", 0, ev("A", 1), ev("B", 2), ev("A", 3), ev("B", 4), ev("B", 5), ev("A", 6)); err != nil {
		t.Fatal(err)
	}
	if _, err := appendTx(t, s, "s-2", 0, ev("B", 7), ev("B", 8)); err != nil {
		t.Fatal(err)
	}
	read := func(after int64, limit int) ([]int64, int64) {
		t.Helper()
		recs, through, err := s.ReadTypesDataIn(ctx, s.Pool(), after, limit, []string{"A"})
		if err != nil {
			t.Fatal(err)
		}
		var pos []int64
		for _, r := range recs {
			if r.Type != "A" || len(r.Data) == 0 {
				t.Fatalf("read %s at %d with data %q, want type A with its data", r.Type, r.GlobalPosition, r.Data)
			}
			pos = append(pos, r.GlobalPosition)
		}
		return pos, through
	}
	if pos, through := read(0, 2); len(pos) != 2 || pos[0] != 1 || pos[1] != 3 || through != 3 {
		t.Fatalf("first page: %v through %d, want [1 3] through 3", pos, through)
	}
	if pos, through := read(3, 2); len(pos) != 1 || pos[0] != 6 || through != 8 {
		t.Fatalf("second page: %v through %d, want [6] through 8 (the horizon, past s-2's B events)", pos, through)
	}
	if pos, through := read(8, 2); len(pos) != 0 || through != 8 {
		t.Fatalf("at the head: %v through %d, want nothing through 8", pos, through)
	}
}
