package main

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/testing/accountstest"
)

// Helpers to arrange and inspect accounts in the browser API's tests.

// exec runs SQL on the test database, to arrange states such as an
// expired code.
func (e *testEnv) exec(sql string, args ...any) {
	e.t.Helper()
	if _, err := e.deps.Pool.Exec(context.Background(), sql, args...); err != nil {
		e.t.Fatal(err)
	}
}

// subscribe gives account id an active monthly subscription.
func (e *testEnv) subscribe(id string) {
	e.t.Helper()
	res := accountstest.Do(e.t, e.repo(), id, func(a *domain.Account, now time.Time) error {
		return a.StartOrRenewCycle("sub_"+id, now, now.AddDate(0, 1, 0), domain.MonthlyCredits, now)
	})
	e.waitFor(res.LastPosition)
}

// countEvents counts the events of type typ in account id's stream.
func (e *testEnv) countEvents(id, typ string) int {
	e.t.Helper()
	h, err := e.repo().History(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	n := 0
	for _, ev := range h {
		if ev.Event.EventType() == typ {
			n++
		}
	}
	return n
}

// lastEvent is the type of account id's newest event.
func (e *testEnv) lastEvent(id string) string {
	e.t.Helper()
	h, err := e.repo().History(context.Background(), id)
	if err != nil || len(h) == 0 {
		e.t.Fatalf("history of %s: %d events, %v", id, len(h), err)
	}
	return h[len(h)-1].Event.EventType()
}
