package eventstore_test

import (
	"context"
	"slices"
	"testing"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// TestFindIn reads one stream's events of one type newest first: by page,
// by a data field, by the idempotency key in the metadata or the one a
// command was stored under.
func TestFindIn(t *testing.T) {
	s := eventstore.New(testdb.New(t))
	ctx := context.Background()
	if _, err := appendTx(t, s, "s-1", 0, ev("A", 1), ev("B", 2)); err != nil {
		t.Fatal(err)
	}
	// Version 3: the client's key in the metadata.
	if _, err := s.Update(ctx, "s-1", eventstore.UpdateOptions{Metadata: eventstore.Metadata{IdempotencyKey: "k-meta"}}, decideAppend("A")); err != nil {
		t.Fatal(err)
	}
	// Version 4: only the stored key (as before keys went into the metadata).
	if _, err := s.Update(ctx, "s-1", eventstore.UpdateOptions{IdempotencyKey: "pre:k-old", RequestHash: "h"}, decideAppend("A")); err != nil {
		t.Fatal(err)
	}
	if _, err := appendTx(t, s, "s-2", 0, ev("A", 1)); err != nil {
		t.Fatal(err)
	}
	versions := func(f eventstore.Find) []int64 {
		t.Helper()
		recs, err := s.FindIn(ctx, s.Pool(), f)
		if err != nil {
			t.Fatal(err)
		}
		var v []int64
		for _, r := range recs {
			if r.StreamID != f.Stream || r.Type != f.Type {
				t.Fatalf("%+v found %+v", f, r)
			}
			v = append(v, r.StreamVersion)
		}
		return v
	}
	for _, c := range []struct {
		f    eventstore.Find
		want []int64
	}{
		{eventstore.Find{Stream: "s-1", Type: "A"}, []int64{4, 3, 1}},
		{eventstore.Find{Stream: "s-1", Type: "A", Limit: 2}, []int64{4, 3}},
		{eventstore.Find{Stream: "s-1", Type: "A", BeforeVersion: 4, Limit: 2}, []int64{3, 1}},
		{eventstore.Find{Stream: "s-1", Type: "B"}, []int64{2}},
		{eventstore.Find{Stream: "s-1", Type: "A", DataField: "n", DataValue: "1"}, []int64{1}},
		{eventstore.Find{Stream: "s-1", Type: "A", DataField: "n", DataValue: "2"}, nil}, // a B
		{eventstore.Find{Stream: "s-1", Type: "A", IdempotencyKey: "k-meta", StoredKey: "pre:k-meta"}, []int64{3}},
		{eventstore.Find{Stream: "s-1", Type: "A", IdempotencyKey: "k-old", StoredKey: "pre:k-old"}, []int64{4}},
		{eventstore.Find{Stream: "s-2", Type: "A", IdempotencyKey: "k-old", StoredKey: "pre:k-old"}, nil},
	} {
		if got := versions(c.f); !slices.Equal(got, c.want) {
			t.Errorf("%+v: versions %v, want %v", c.f, got, c.want)
		}
	}
	if _, err := s.FindIn(ctx, s.Pool(), eventstore.Find{Stream: "s-1", Type: "A' OR true --"}); err == nil {
		t.Error("a type that is not an identifier was written into the statement")
	}
}
