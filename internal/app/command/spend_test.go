package command

// The spender's promises (the API key on the locked account, idempotency,
// no overdraw under concurrency), through CreateListing, a metered command.

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/amazonurl"
)

func TestSpendRefusesAKeyThatIsNotTheCurrentOne(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.register("oldkey@example.com")
	e.grant(r.AccountID, 3, nil)
	s := e.spend(r, "")
	if _, err := e.cmd.RotateAPIKey.Handle(context.Background(), RotateAPIKey{AccountID: r.AccountID}); err != nil {
		t.Fatal(err)
	}
	_, err := e.cmd.CreateListing.Handle(context.Background(), CreateListing{Spend: s, Product: testProduct})
	if !errors.Is(err, domain.ErrAPIKeyNotCurrent) {
		t.Fatalf("old key: %v, want ErrAPIKeyNotCurrent", err)
	}
	wantCode(t, err, domain.CodeUnauthorized)
	if got := e.account(r.AccountID).Balance(e.now()); got != 3 {
		t.Fatalf("balance %d after a refused key, want 3", got)
	}
}

func TestSpendIdempotencyKeyChargesOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.register("idem@example.com")
	e.grant(r.AccountID, 5, nil)
	ctx := context.Background()
	s := e.spend(r, "listing-1")
	s.Metadata = eventstore.Metadata{RequestID: "req-first"}
	first, err := e.cmd.CreateListing.Handle(ctx, CreateListing{Spend: s, Product: testProduct})
	if err != nil {
		t.Fatal(err)
	}
	s.Metadata = eventstore.Metadata{RequestID: "req-retry"}
	again, err := e.cmd.CreateListing.Handle(ctx, CreateListing{Spend: s, Product: testProduct})
	if err != nil {
		t.Fatal(err)
	}
	if !again.Replayed || string(again.Body) != string(first.Body) || again.OriginalRequestID != "req-first" {
		t.Fatalf("retry: replayed %v, original %q, body %s vs %s", again.Replayed, again.OriginalRequestID, again.Body, first.Body)
	}
	if got := e.account(r.AccountID).Balance(e.now()); got != 4 {
		t.Fatalf("balance %d after a retried call, want 4", got)
	}

	other := s
	other.RequestHash = "another request"
	_, err = e.cmd.CreateListing.Handle(ctx, CreateListing{Spend: other, Product: amazonurl.Product{ASIN: "B000OTHER1", Host: "www.amazon.com"}})
	if !errors.Is(err, eventstore.ErrIdempotencyKeyReused) {
		t.Fatalf("same key, other request: %v, want ErrIdempotencyKeyReused", err)
	}
	if ev := e.events(r.AccountID); ev["ListingRequested"] != 1 || ev[spends] != 1 {
		t.Fatalf("events %v, want one listing", ev)
	}
}

func TestSpendConcurrentSpendsNeverOverdraw(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.register("race@example.com")
	e.grant(r.AccountID, 10, nil)
	const n = 16
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			_, errs[i] = e.cmd.CreateListing.Handle(context.Background(), CreateListing{Spend: e.spend(r, ""), Product: testProduct})
		})
	}
	wg.Wait()
	ok, broke := 0, 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case domain.ErrorCode(err) == domain.CodeInsufficientCredits:
			broke++
		default:
			t.Fatalf("unexpected error: %v", err)
		}
	}
	if ok != 10 || broke != 6 {
		t.Fatalf("%d charged, %d refused; want 10 and 6", ok, broke)
	}
	if a := e.account(r.AccountID); a.Balance(e.now()) != 0 {
		t.Fatalf("balance %d, want 0", a.Balance(e.now()))
	}
	if ev := e.events(r.AccountID); ev[spends] != 10 || ev["ListingRequested"] != 10 {
		t.Fatalf("events %v", ev)
	}
}

func TestSpendSameKeyConcurrentlyChargesExactlyOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.register("once@example.com")
	e.grant(r.AccountID, 10, nil)
	const n = 16
	var wg sync.WaitGroup
	bodies := make([]string, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			m, err := e.cmd.CreateListing.Handle(context.Background(), CreateListing{Spend: e.spend(r, "same-key"), Product: testProduct})
			bodies[i], errs[i] = string(m.Body), err
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if bodies[i] != bodies[0] {
			t.Fatalf("call %d answered %s, call 0 %s", i, bodies[i], bodies[0])
		}
	}
	if got := e.account(r.AccountID).Balance(e.now()); got != 9 {
		t.Fatalf("balance %d, want 9 (one charge)", got)
	}
	if ev := e.events(r.AccountID); ev[spends] != 1 {
		t.Fatalf("events %v, want one spend", ev)
	}
}
