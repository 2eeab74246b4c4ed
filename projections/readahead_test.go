package projections

import (
	"context"
	"io"
	"log/slog"
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// A read ahead returns what the batch's own read would: a contiguous run of
// the log after its position (gaps in the positions included, its parts
// joined in order), each event decoded, and "more" exactly when the log
// holds events after it. And the live loop's batches take their events from
// it while behind, apply each event once and end with every event applied.
func TestReadAheadIsTheBatchsOwnRead(t *testing.T) {
	ctx := context.Background()
	pool := testdb.New(t)
	store := eventstore.New(pool)
	repo := accounts.NewRepository(store, nil)
	r := NewProjector(pool, store, slog.New(slog.NewTextHandler(io.Discard, nil)), All()...)
	var ids []string
	for i := range 12 {
		id := uuid.NewString()
		if _, err := repo.Create(ctx, id, eventstore.UpdateOptions{}, func(_ context.Context, _ accounts.Work, now time.Time) (*domain.Account, error) {
			return domain.Register(id, "seller-"+id[:8]+"@example.com", domain.APIKeyMaterial{KeyID: "k-" + id, Prefix: "a2e_" + id[:6], Hash: "h-" + id, Encrypted: "enc-" + id}, now)
		}); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
		if i%3 == 0 { // a gap: positions drawn by an append that rolled back
			if _, err := pool.Exec(ctx, `SELECT nextval('events_position_seq') FROM generate_series(1, 2)`); err != nil {
				t.Fatal(err)
			}
		}
	}
	all, err := store.ReadAllDataIn(ctx, pool, 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 24 {
		t.Fatalf("%d events; want at least 24", len(all))
	}
	for _, c := range []struct {
		after int64
		limit int
	}{{0, 1}, {0, 5}, {0, 8}, {all[3].GlobalPosition, 6}, {all[3].GlobalPosition + 1, 7}, {0, len(all)}, {0, len(all) + 5}, {all[len(all)-1].GlobalPosition, 4}} {
		recs, evs, more, err := r.readAhead(ctx, c.after, c.limit)
		if err != nil {
			t.Fatal(err)
		}
		var want []eventstore.Record
		for _, rec := range all {
			if rec.GlobalPosition > c.after {
				want = append(want, rec)
			}
		}
		if len(recs) > c.limit || len(recs) > len(want) || !reflect.DeepEqual(recs, want[:len(recs)]) {
			t.Fatalf("read ahead after %d, limit %d: %d events, not the log's first %d after it", c.after, c.limit, len(recs), len(recs))
		}
		if more != (len(recs) < len(want)) {
			t.Fatalf("read ahead after %d, limit %d: more %v with %d of %d events read", c.after, c.limit, more, len(recs), len(want))
		}
		if len(recs) == len(want) && len(recs) > c.limit {
			t.Fatalf("read ahead after %d, limit %d: %d events", c.after, c.limit, len(recs))
		}
		for i := range recs {
			if evs[i] == nil {
				t.Fatalf("event %d read ahead but not decoded", recs[i].GlobalPosition)
			}
		}
	}

	// The live loop's batches, as applyLoop runs them, with a per-stream
	// CatchUp applying one account ahead of them before they start.
	if _, err := r.CatchUp(ctx, "profiles", domain.StreamID(ids[7])); err != nil {
		t.Fatal(err)
	}
	size := newBatchSizer(2, 4)
	ahead := newAheadReader(size)
	defer ahead.wait()
	for range 100 {
		n, _, err := r.applyLive(ctx, size.size(), nil, ahead)
		if err != nil {
			t.Fatal(err)
		}
		if !size.grow(n > 0 && (n >= size.size() || ahead.more())) {
			break
		}
	}
	if ahead.used == 0 {
		t.Fatal("no batch took its events from a read ahead")
	}
	for _, name := range r.Names() {
		if ok, err := r.Passed(ctx, name, all[len(all)-1].GlobalPosition); err != nil || !ok {
			t.Fatalf("%s has not applied the last event (%v)", name, err)
		}
		if wm, err := r.Watermark(ctx, name); err != nil || wm < all[len(all)-1].GlobalPosition {
			t.Fatalf("%s watermark %d (%v)", name, wm, err)
		}
	}
	// Each event applied once: the tables are a rebuild's.
	live := DumpReadTables(t, pool)
	for _, name := range r.Names() {
		if err := r.Rebuild(ctx, name, 5); err != nil {
			t.Fatal(err)
		}
	}
	if rebuilt := DumpReadTables(t, pool); !reflect.DeepEqual(live, rebuilt) {
		t.Fatalf("live tables differ from a rebuild:\nlive    %v\nrebuilt %v", live, rebuilt)
	}
	var registered int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM profiles WHERE account_id = ANY($1::text[]::uuid[])`, ids).Scan(&registered); err != nil {
		t.Fatal(err)
	}
	if registered != len(ids) {
		t.Fatalf("%d profiles; want %d", registered, len(ids))
	}
}
