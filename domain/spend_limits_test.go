package domain

import (
	"errors"
	"testing"
	"time"
)

func TestSetSpendLimits(t *testing.T) {
	run(t, []scenario{
		{
			name:  "sets both limits",
			given: []Event{EmailVerified{}},
			when:  func(a *Account) error { return a.SetSpendLimits(ptr(int64(10)), ptr(int64(200)), day(1)) },
			then:  []Event{SpendLimitsSet{DailyCredits: ptr(int64(10)), MonthlyCredits: ptr(int64(200))}},
		},
		{
			name:  "clears a limit",
			given: []Event{EmailVerified{}, SpendLimitsSet{DailyCredits: ptr(int64(10))}},
			when:  func(a *Account) error { return a.SetSpendLimits(nil, nil, day(1)) },
			then:  []Event{SpendLimitsSet{}},
		},
		{
			name:  "the same limits again record nothing",
			given: []Event{EmailVerified{}, SpendLimitsSet{DailyCredits: ptr(int64(10))}},
			when:  func(a *Account) error { return a.SetSpendLimits(ptr(int64(10)), nil, day(1)) },
		},
		{
			name:    "unverified account",
			when:    func(a *Account) error { return a.SetSpendLimits(ptr(int64(10)), nil, day(1)) },
			wantErr: CodeInvalid,
			wantMsg: "Verify your email address before setting spend limits",
		},
		{
			name:    "negative",
			given:   []Event{EmailVerified{}},
			when:    func(a *Account) error { return a.SetSpendLimits(ptr(int64(-1)), nil, day(1)) },
			wantErr: CodeInvalid,
			wantMsg: "The daily limit must be 0 or more",
		},
		{
			name:    "absurd",
			given:   []Event{EmailVerified{}},
			when:    func(a *Account) error { return a.SetSpendLimits(nil, ptr(int64(MaxSpendLimit+1)), day(1)) },
			wantErr: CodeInvalid,
			wantMsg: "The monthly limit must be at most 10000000",
		},
	})
}

func spends(n int) []Event {
	evs := make([]Event, n)
	for i := range evs {
		evs[i] = CreditsSpent{Amount: 1, Operation: OperationAPIRequest, Draws: []Draw{{GrantID: "g", Amount: 1}}}
	}
	return evs
}

// A spend over the daily limit is refused with the limit, the day's spend
// and the next UTC midnight; the day after, it goes through.
func TestSpendOverTheDailyLimit(t *testing.T) {
	history := append([]Event{EmailVerified{}, CreditsGranted{GrantID: "g", Amount: 100, Source: SourcePurchase},
		SpendLimitsSet{DailyCredits: ptr(int64(3))}}, spends(3)...)
	a := given(t, history...)
	now := t0.Add(time.Hour) // the stream's events are minutes after t0, the same UTC day
	err := a.Spend(OperationAPIRequest, "r", now)
	var limit *SpendLimitError
	if !errors.As(err, &limit) || ErrorCode(err) != CodeSpendLimitReached {
		t.Fatalf("spend over the limit: %v, want a SpendLimitError", err)
	}
	midnight := time.Date(2025, time.March, 2, 0, 0, 0, 0, time.UTC)
	if limit.Period != SpendLimitDaily || limit.Limit != 3 || limit.Spent != 3 || !limit.ResetsAt.Equal(midnight) {
		t.Fatalf("refusal %+v", limit)
	}
	if len(a.Changes()) != 0 {
		t.Fatalf("a refused spend recorded %v", a.Changes())
	}
	if err := a.Spend(OperationAPIRequest, "r", midnight); err != nil {
		t.Fatalf("spend the next day: %v", err)
	}
	if v := a.SpendLimits(midnight); v.SpentToday != 1 || v.SpentThisMonth != 4 {
		t.Fatalf("limits after the day's first spend: %+v", v)
	}
}

// The monthly limit counts the paid cycle holding the spend; when both are
// reached the monthly one is named, since spending resumes only when it resets.
func TestSpendOverTheMonthlyLimitCountsTheBillingCycle(t *testing.T) {
	start := t0.Add(-10 * 24 * time.Hour)
	end := start.AddDate(0, 1, 0)
	history := append([]Event{EmailVerified{},
		SubscriptionActivated{SubscriptionID: "sub", PeriodStart: start, PeriodEnd: end},
		CreditsGranted{GrantID: "g", Amount: 100, Source: SourcePurchase},
		SpendLimitsSet{DailyCredits: ptr(int64(2)), MonthlyCredits: ptr(int64(2))}}, spends(2)...)
	a := given(t, history...)
	err := a.Spend(OperationListing, "l", t0.Add(time.Hour))
	var limit *SpendLimitError
	if !errors.As(err, &limit) || limit.Period != SpendLimitMonthly || limit.Spent != 2 || !limit.ResetsAt.Equal(end) {
		t.Fatalf("spend over both limits: %v %+v, want the monthly one resetting at %s", err, limit, end)
	}
	if err := a.RequestListing("l2", "B000000001", "", t0.Add(time.Hour)); ErrorCode(err) != CodeSpendLimitReached {
		t.Fatalf("a listing over the limit: %v", err)
	}
	// A renewal starts a new billing month: the day's limit is what stops it now.
	r := given(t, append(history, SubscriptionRenewed{SubscriptionID: "sub", PeriodStart: end, PeriodEnd: end.AddDate(0, 1, 0)})...)
	if v := r.SpendLimits(end.Add(time.Minute)); v.SpentThisMonth != 0 || v.SpentToday != 0 {
		t.Fatalf("after the renewal: %+v", v)
	}
	if err := r.Spend(OperationListing, "l", end.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
}

// Without a cycle the billing month is the calendar month (UTC).
func TestSpendLimitsWithoutACycleUseTheCalendarMonth(t *testing.T) {
	a := given(t, EmailVerified{})
	v := a.SpendLimits(t0)
	if want := time.Date(2025, time.April, 1, 0, 0, 0, 0, time.UTC); !v.MonthResetsAt.Equal(want) || v.Daily != nil || v.Monthly != nil {
		t.Fatalf("limits %+v, want no limits and a month ending %s", v, want)
	}
}

// A spend under the limits is recorded as before, and a snapshot keeps the
// counts.
func TestSpendLimitsSurviveASnapshot(t *testing.T) {
	a := given(t, append([]Event{EmailVerified{}, CreditsGranted{GrantID: "g", Amount: 10, Source: SourcePurchase},
		SpendLimitsSet{DailyCredits: ptr(int64(2))}}, spends(1)...)...)
	data, err := a.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := RestoreSnapshot(testAccountID, a.Version(), data)
	if err != nil {
		t.Fatal(err)
	}
	now := t0.Add(time.Hour)
	if err := b.Spend(OperationAPIRequest, "r", now); err != nil {
		t.Fatal(err)
	}
	if err := b.Spend(OperationAPIRequest, "r", now); ErrorCode(err) != CodeSpendLimitReached {
		t.Fatalf("third spend of the day: %v", err)
	}
}

// A limit's reach is recorded once per period: the first refusal of the
// period says it is not noted, NoteSpendLimitReached records it, a refusal
// after that in the same period says it is noted, and the next period (or
// a new limit) starts unnoted again.
func TestSpendLimitReachedIsNotedOncePerPeriod(t *testing.T) {
	start := t0.Add(-10 * 24 * time.Hour)
	end := start.AddDate(0, 1, 0)
	base := []Event{EmailVerified{}, CreditsGranted{GrantID: "g", Amount: 100, Source: SourcePurchase}}
	daily := append(append(base[:len(base):len(base)], SpendLimitsSet{DailyCredits: ptr(int64(2))}), spends(2)...)
	monthly := append(append(append(base[:len(base):len(base)],
		SubscriptionActivated{SubscriptionID: "sub", PeriodStart: start, PeriodEnd: end}),
		SpendLimitsSet{MonthlyCredits: ptr(int64(2))}), spends(2)...)
	now := t0.Add(time.Hour) // the same UTC day and billing month as the streams' spends
	midnight := time.Date(2025, time.March, 2, 0, 0, 0, 0, time.UTC)
	dayReached := SpendLimitReached{Period: SpendLimitDaily, Limit: 2, Spent: 2, ResetsAt: midnight}
	monthReached := SpendLimitReached{Period: SpendLimitMonthly, Limit: 2, Spent: 2, ResetsAt: end}
	for _, tc := range []struct {
		name      string
		history   []Event
		noted     []Event // recorded, in this order, at now
		at        time.Time
		wantNoted bool
		period    string
	}{
		{"daily: first refusal of the day", daily, nil, now, false, SpendLimitDaily},
		{"daily: after the reach of the day", daily, []Event{dayReached}, now, true, SpendLimitDaily},
		{"daily: the next day, over the limit again", daily, []Event{dayReached}, midnight.Add(time.Hour), false, SpendLimitDaily},
		{"daily: a new limit is news again", daily, []Event{dayReached, SpendLimitsSet{DailyCredits: ptr(int64(1))}}, now, false, SpendLimitDaily},
		{"daily: the same limit stated again stays noted", daily, []Event{dayReached, SpendLimitsSet{DailyCredits: ptr(int64(2)), MonthlyCredits: ptr(int64(50))}}, now, true, SpendLimitDaily},
		{"monthly: first refusal of the cycle", monthly, nil, now, false, SpendLimitMonthly},
		{"monthly: after the reach, the next day too", monthly, []Event{monthReached}, now.AddDate(0, 0, 1), true, SpendLimitMonthly},
		{"monthly: a daily reach does not note it", monthly, []Event{dayReached}, now, false, SpendLimitMonthly},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := given(t, tc.history...)
			for _, e := range tc.noted {
				a.record(e, now)
			}
			if tc.at.After(midnight) && tc.period == SpendLimitDaily {
				// The next day: spend up to the limit again first.
				for range 2 {
					if err := a.Spend(OperationAPIRequest, "r", tc.at); err != nil {
						t.Fatal(err)
					}
				}
			}
			var limit *SpendLimitError
			if err := a.Spend(OperationAPIRequest, "r", tc.at); !errors.As(err, &limit) {
				t.Fatalf("spend over the limit: %v, want a SpendLimitError", err)
			}
			if limit.Period != tc.period || limit.Noted != tc.wantNoted {
				t.Fatalf("refusal %+v, want period %s noted %v", limit, tc.period, tc.wantNoted)
			}
			before := len(a.Changes())
			if got := a.NoteSpendLimitReached(tc.at); got == tc.wantNoted {
				t.Fatalf("NoteSpendLimitReached = %v, want %v", got, !tc.wantNoted)
			}
			if !tc.wantNoted {
				ch := a.Changes()
				if len(ch) != before+1 {
					t.Fatalf("changes %v, want one SpendLimitReached more", ch)
				}
				if got := ch[len(ch)-1].(SpendLimitReached); got != (SpendLimitReached{Period: limit.Period, Limit: limit.Limit,
					Spent: limit.Spent, ResetsAt: limit.ResetsAt}) {
					t.Fatalf("recorded %+v, want the refusal's %+v", got, limit)
				}
				// Now it is noted: the next refusal of the period says so,
				// and noting again records nothing.
				if err := a.Spend(OperationAPIRequest, "r", tc.at); !errors.As(err, &limit) || !limit.Noted {
					t.Fatalf("refusal after the note: %v %+v, want noted", err, limit)
				}
				if a.NoteSpendLimitReached(tc.at) {
					t.Fatal("noted twice in one period")
				}
			}
		})
	}
}

// A spend under the limits notes nothing, and the note survives a
// snapshot.
func TestSpendLimitReachedSurvivesASnapshot(t *testing.T) {
	a := given(t, append([]Event{EmailVerified{}, CreditsGranted{GrantID: "g", Amount: 10, Source: SourcePurchase},
		SpendLimitsSet{DailyCredits: ptr(int64(1))}}, spends(1)...)...)
	now := t0.Add(time.Hour)
	if !a.NoteSpendLimitReached(now) {
		t.Fatal("the reached limit was not noted")
	}
	data, err := a.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := RestoreSnapshot(testAccountID, a.Version(), data)
	if err != nil {
		t.Fatal(err)
	}
	var limit *SpendLimitError
	if err := b.Spend(OperationAPIRequest, "r", now); !errors.As(err, &limit) || !limit.Noted {
		t.Fatalf("refusal after the restore: %v %+v, want noted", err, limit)
	}
	c := given(t, EmailVerified{}, CreditsGranted{GrantID: "g", Amount: 10, Source: SourcePurchase}, SpendLimitsSet{DailyCredits: ptr(int64(5))})
	if c.NoteSpendLimitReached(now) || len(c.Changes()) != 0 {
		t.Fatalf("a limit not reached was noted: %v", c.Changes())
	}
}
