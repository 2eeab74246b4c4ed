package command_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/apikeys"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/payments"
	"github.com/a2e-automation/app/internal/testing/stripetest"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

const webhookSecret = "whsec_test_payments"

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// env is a Service on a fresh database and a test clock.
type env struct {
	t     *testing.T
	pool  *pgxpool.Pool
	repo  *accounts.Repository
	clock *clock
	svc   *payments.Service
}

var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

func newEnv(t *testing.T, provider payments.Provider) *env {
	t.Helper()
	pool := testdb.New(t)
	c := &clock{t: t0}
	repo := accounts.NewRepository(eventstore.New(pool), c.Now)
	svc := payments.NewService(pool, repo, provider, webhookSecret, slog.New(slog.DiscardHandler))
	return &env{t: t, pool: pool, repo: repo, clock: c, svc: svc}
}

// commands are the use cases on e's service, as the API builds them (the
// seller's cancel and resume run there, issue 27).
func (e *env) commands() command.Commands {
	return command.New(command.Deps{Accounts: e.repo, Payments: e.svc, Log: slog.New(slog.DiscardHandler)})
}

// account registers a seller account and returns its id.
func (e *env) account(email string) string {
	e.t.Helper()
	keys, err := apikeys.New(config.DevelopmentSecret)
	if err != nil {
		e.t.Fatal(err)
	}
	s, err := e.repo.Register(context.Background(), keys, email, "not-a-real-hash", eventstore.Metadata{Actor: "test"})
	if err != nil {
		e.t.Fatal(err)
	}
	// Payments need a verified address.
	if _, err := e.repo.Update(context.Background(), s.AccountID, eventstore.UpdateOptions{Metadata: eventstore.Metadata{Actor: "test"}},
		func(_ context.Context, _ pgx.Tx, a *domain.Account, now time.Time) (any, error) {
			return nil, a.VerifyEmail(now)
		}); err != nil {
		e.t.Fatal(err)
	}
	return s.AccountID
}

// deliver signs and applies a webhook of object as event id, created now.
func (e *env) deliver(id, typ string, object map[string]any) command.Outcome {
	e.t.Helper()
	out, err := e.deliverErr(id, typ, object)
	if err != nil {
		e.t.Fatalf("%s %s: %v", typ, id, err)
	}
	return out
}

func (e *env) deliverErr(id, typ string, object map[string]any) (command.Outcome, error) {
	return e.deliverPayload(stripetest.Event(id, typ, e.clock.Now(), object))
}

// deliverPayload signs and applies a webhook of payload, as the API does.
func (e *env) deliverPayload(payload []byte) (command.Outcome, error) {
	out, err := e.commands().ApplyStripeEvent.Handle(context.Background(), command.ApplyStripeEvent{
		Payload: payload, Signature: stripetest.Sign(payload, webhookSecret), Metadata: eventstore.Metadata{Actor: "stripe"}})
	return out.Outcome, err
}

func (e *env) load(id string) *domain.Account {
	e.t.Helper()
	a, err := e.repo.Replay(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return a
}

// check asserts the balance and subscription status of account id now.
func (e *env) check(id string, balance int64, status string) {
	e.t.Helper()
	a := e.load(id)
	if got := a.Balance(e.clock.Now()); got != balance {
		e.t.Errorf("balance = %d, want %d", got, balance)
	}
	if got := a.SubscriptionStatus(); got != status {
		e.t.Errorf("status = %s, want %s", got, status)
	}
}

// history returns the events of account id of the given types, in order.
func (e *env) history(id string, types ...string) []domain.Event {
	e.t.Helper()
	recs, err := e.repo.History(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	var out []domain.Event
	for _, r := range recs {
		for _, typ := range types {
			if r.Event.EventType() == typ {
				out = append(out, r.Event)
			}
		}
	}
	return out
}

func (e *env) version(id string) int64 {
	e.t.Helper()
	recs, err := e.repo.History(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return recs[len(recs)-1].Version
}

func month(n int) time.Time { return t0.AddDate(0, n, 0) }

func invoice(id, accountID string, from, to int, paid bool) stripetest.Invoice {
	return stripetest.Invoice{
		ID: id, CustomerID: "cus_unknown", SubscriptionID: "sub_1", AccountID: accountID,
		PeriodStart: month(from), PeriodEnd: month(to), AmountCents: 2999, Paid: paid,
		HostedURL: "https://invoice.stripe.com/i/acct_1/" + id,
	}
}
