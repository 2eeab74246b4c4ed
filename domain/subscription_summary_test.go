package domain

import (
	"testing"
	"time"
)

// TestSubscriptionSummaryAfter: the read models' summary follows the
// account's own fold, event by event: status, renewal date while active or
// past due, end while cancelling.
func TestSubscriptionSummaryAfter(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	end := t0.AddDate(0, 1, 0)
	next := end.AddDate(0, 1, 0)
	steps := []struct {
		ev   Event
		want SubscriptionSummary
	}{
		{SubscriptionActivated{SubscriptionID: "sub", PeriodStart: t0, PeriodEnd: end}, SubscriptionSummary{Status: StatusActive, RenewsAt: &end}},
		{SubscriptionPastDue{SubscriptionID: "sub"}, SubscriptionSummary{Status: StatusPastDue, RenewsAt: &end}},
		{SubscriptionRenewed{SubscriptionID: "sub", PeriodStart: end, PeriodEnd: next}, SubscriptionSummary{Status: StatusActive, RenewsAt: &next}},
		{SubscriptionCancelled{SubscriptionID: "sub", EndsAt: next}, SubscriptionSummary{Status: StatusCancelling, EndsAt: &next}},
		{SubscriptionResumed{SubscriptionID: "sub", PeriodEnd: next}, SubscriptionSummary{Status: StatusActive, RenewsAt: &next}},
		{SubscriptionEnded{SubscriptionID: "sub"}, SubscriptionSummary{Status: StatusCancelled}},
	}
	sum := SubscriptionSummary{Status: StatusInactive}
	for _, s := range steps {
		got, ok := sum.After(s.ev, t0)
		if !ok || got.Status != s.want.Status || !sameTime(got.RenewsAt, s.want.RenewsAt) || !sameTime(got.EndsAt, s.want.EndsAt) {
			t.Fatalf("after %T: got %+v (%v), want %+v", s.ev, got, ok, s.want)
		}
		sum = got
	}
	if got, ok := sum.After(EmailVerified{}, t0); ok || got != sum {
		t.Fatalf("another event changed the summary: %+v, %v", got, ok)
	}
}

func sameTime(a, b *time.Time) bool {
	return (a == nil) == (b == nil) && (a == nil || a.Equal(*b))
}
