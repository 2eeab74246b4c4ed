package domain

import (
	"fmt"
	"testing"
	"time"
)

// orderCommand is one command that a provider event or the seller runs on
// a subscription.
type orderCommand struct {
	name string
	run  func(a *Account, now time.Time) error
}

// permutations returns every order of cmds.
func permutations(cmds []orderCommand) [][]orderCommand {
	if len(cmds) <= 1 {
		return [][]orderCommand{cmds}
	}
	var out [][]orderCommand
	for i := range cmds {
		rest := append(append([]orderCommand{}, cmds[:i]...), cmds[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]orderCommand{cmds[i]}, p...))
		}
	}
	return out
}

// outcome is what a seller sees of a subscription.
type outcome struct {
	status    string
	balance   int64
	premium   bool
	periodEnd string
}

func outcomeOf(a *Account, now time.Time) outcome {
	o := outcome{status: a.SubscriptionStatusAt(now), balance: a.Balance(now), premium: a.HasPremiumAccess(now)}
	if p := a.PeriodEnd(); p != nil {
		o.periodEnd = p.Format(time.RFC3339)
	}
	return o
}

// Stripe delivers events in any order: every order of the same commands
// ends in the same state, the one the order they happened in gives. A
// refused command (the seller cancelling what has ended) changes nothing.
func TestSubscriptionCommandsEndTheSameInAnyOrder(t *testing.T) {
	paid := func(from, to int) orderCommand {
		return orderCommand{fmt.Sprintf("paid %d-%d", from, to), func(a *Account, now time.Time) error {
			return a.StartOrRenewCycle("sub_1", day(from), day(to), 500, now)
		}}
	}
	deleted := orderCommand{"deleted", func(a *Account, now time.Time) error { return a.EndSubscription("sub_1", now) }}
	sellerCancels := orderCommand{"seller cancels", func(a *Account, now time.Time) error { return a.CancelSubscription(now) }}
	pastDue := SubscriptionPastDue{SubscriptionID: "sub_1"}
	for _, tc := range []struct {
		name  string
		given []Event
		at    int // day the commands run
		cmds  []orderCommand
		want  outcome
	}{
		{
			name: "deleted and the same period's invoice.paid",
			at:   10, cmds: []orderCommand{paid(0, 30), deleted},
			want: outcome{status: StatusCancelled, balance: 500, periodEnd: day(30).Format(time.RFC3339)},
		},
		{
			name: "two cycles and the deletion",
			at:   40, cmds: []orderCommand{paid(0, 30), paid(30, 60), deleted},
			want: outcome{status: StatusCancelled, balance: 500, periodEnd: day(60).Format(time.RFC3339)},
		},
		{
			name:  "the seller cancels a past due subscription; its late invoice.paid and Stripe's deletion",
			given: []Event{SubscriptionActivated{SubscriptionID: "sub_1", PeriodStart: day(0), PeriodEnd: day(30)}, pastDue},
			at:    35, cmds: []orderCommand{sellerCancels, paid(30, 60), deleted},
			want: outcome{status: StatusCancelled, balance: 500, periodEnd: day(60).Format(time.RFC3339)},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now := day(tc.at)
			for _, order := range permutations(tc.cmds) {
				a := given(t, tc.given...)
				var names []string
				for _, c := range order {
					names = append(names, c.name)
					if err := c.run(a, now); err != nil && ErrorCode(err) != CodeConflict {
						t.Fatalf("%v: %s: %v", names, c.name, err)
					}
				}
				if got := outcomeOf(a, now); got != tc.want {
					t.Errorf("%v: %+v, want %+v", names, got, tc.want)
				}
				// The stream folds to the same state (snapshots, read models).
				again, err := Rehydrate(testAccountID, append(stream(append(opening(), tc.given...)...), recordedAt(a, now, len(opening())+len(tc.given))...))
				if err != nil {
					t.Fatal(err)
				}
				if got := outcomeOf(again, now); got != tc.want {
					t.Errorf("%v, rehydrated: %+v, want %+v", names, got, tc.want)
				}
			}
		})
	}
}

// recordedAt numbers a's new events after version from, recorded at now.
func recordedAt(a *Account, now time.Time, from int) []Recorded {
	var out []Recorded
	for i, e := range a.Changes() {
		out = append(out, Recorded{Version: int64(from + i + 1), At: now, Event: e})
	}
	return out
}

// A subscription's end that overtakes its first paid cycle is remembered,
// and a cycle billed after the end the ledger inferred (a cancelling
// subscription's period end, proved wrong by a renewal) still renews.
func TestEndedSubscriptionStaysEnded(t *testing.T) {
	a := given(t)
	if err := a.EndSubscription("sub_1", day(1)); err != nil {
		t.Fatal(err)
	}
	if err := a.StartOrRenewCycle("sub_1", day(0), day(30), 500, day(2)); err != nil {
		t.Fatal(err)
	}
	if a.SubscriptionStatus() != StatusCancelled || a.HasPremiumAccess(day(2)) || a.Balance(day(2)) != 500 {
		t.Fatalf("status %s, premium %v, balance %d", a.SubscriptionStatus(), a.HasPremiumAccess(day(2)), a.Balance(day(2)))
	}
	// An end of another subscription while one runs changes nothing.
	b := given(t, SubscriptionActivated{SubscriptionID: "sub_2", PeriodStart: day(0), PeriodEnd: day(30)})
	if err := b.EndSubscription("sub_1", day(1)); err != nil || len(b.Changes()) != 0 {
		t.Fatalf("end of another subscription: %v, %v", err, b.Changes())
	}
	// A cancelling subscription's end at its period end is the period
	// end's business: a later cycle (the seller resumed, or cancelled after
	// Stripe had renewed) restarts it.
	c := given(t, SubscriptionActivated{SubscriptionID: "sub_1", PeriodStart: day(0), PeriodEnd: day(30)},
		SubscriptionCancelled{SubscriptionID: "sub_1", EndsAt: day(30)})
	c.endDueCancellation(day(30))
	if err := c.StartOrRenewCycle("sub_1", day(30), day(60), 500, day(31)); err != nil {
		t.Fatal(err)
	}
	if c.SubscriptionStatus() != StatusActive {
		t.Fatalf("renewed after a cancellation's end: %s", c.SubscriptionStatus())
	}
}
