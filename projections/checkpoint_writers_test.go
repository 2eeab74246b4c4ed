package projections

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// TestCatchUpWaitsForTheApplierLock: a live batch reads a projection's
// checkpoints without row locks (readCheckpoints), which is safe only while
// every other writer of them waits for the projection's applier lock. A
// per-stream CatchUp started while another transaction holds that lock (as
// a live batch does) must not run until it is released. Without the wait
// it returns at once (tried), and would apply events the batch has read as
// unapplied, so both would apply them.
func TestCatchUpWaitsForTheApplierLock(t *testing.T) {
	pool := testdb.New(t)
	ctx := context.Background()
	r := NewProjector(pool, eventstore.New(pool), slog.New(slog.NewTextHandler(io.Discard, nil)), All()...)

	held, err := pool.BeginTx(ctx, readCommitted)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = held.Rollback(ctx) }()
	mine, err := r.lockLive(ctx, held, []string{"profiles"})
	if err != nil || len(mine) != 1 {
		t.Fatalf("the live batch's locks: %v, %v", mine, err)
	}

	caughtUp := make(chan error, 1)
	go func() {
		_, err := r.CatchUp(ctx, "profiles", "account-00000000-0000-0000-0000-000000000001")
		caughtUp <- err
	}()
	select {
	case err := <-caughtUp:
		t.Fatalf("CatchUp ran while a batch held the applier lock (err %v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	if err := held.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-caughtUp:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("CatchUp still waiting after the batch ended")
	}
}
