package domain

import (
	"testing"
)

// rechargeTypes are the auto-recharge events among a's changes, in order.
func rechargeTypes(a *Account) []string {
	var out []string
	for _, e := range a.Changes() {
		switch e.(type) {
		case AutoRechargeSet, PaymentMethodSaved, PaymentMethodRemoved, RechargeRequested, RechargeFailed,
			RechargeNeedsAction, AutoRechargeDisabled:
			out = append(out, e.EventType())
		}
	}
	return out
}

// recharging is a verified account with a card, 5 credits, and
// auto-recharge on: 100 credits ($10) when below 3, at most $25 a month.
func recharging(t *testing.T, extra ...Event) *Account {
	t.Helper()
	return given(t, append([]Event{EmailVerified{},
		CreditsGranted{GrantID: "p1", Amount: 5, Source: SourcePurchase},
		PaymentMethodSaved{Brand: "visa", Last4: "4242"},
		AutoRechargeSet{Enabled: true, ThresholdCredits: 3, PackCredits: 100, PackAmountCents: 1000, MonthlyLimitCents: 2500},
	}, extra...)...)
}

// spendAndReview spends one credit and reviews auto-recharge, as the
// repository's decider does, returning the recharge events recorded.
func spendAndReview(t *testing.T, a *Account, ref string) []string {
	t.Helper()
	a.changes = nil
	if err := a.Spend(OperationListing, ref, day(1)); err != nil {
		t.Fatalf("spend %s: %v", ref, err)
	}
	a.ReviewAutoRecharge(day(1))
	return rechargeTypes(a)
}

func TestAutoRechargeRequestsOncePerCrossing(t *testing.T) {
	a := recharging(t)
	if got := spendAndReview(t, a, "l1"); len(got) != 0 { // 5 -> 4
		t.Fatalf("above the threshold: %v", got)
	}
	spendAndReview(t, a, "l2")                                                             // 4 -> 3: not below
	if got := spendAndReview(t, a, "l3"); len(got) != 1 || got[0] != "RechargeRequested" { // 3 -> 2
		t.Fatalf("crossing: %v, want one RechargeRequested", got)
	}
	req := a.Changes()[len(a.Changes())-1].(RechargeRequested)
	if req.RechargeID != "recharge-1" || req.Credits != 100 || req.AmountCents != 1000 || req.Available != 2 {
		t.Fatalf("request %+v", req)
	}
	if got := spendAndReview(t, a, "l4"); len(got) != 0 {
		t.Fatalf("a second request while one is in flight: %v", got)
	}
	// Paid through the purchase path: credits granted, the recharge ends.
	a.changes = nil
	if err := a.GrantCredits(CreditsGranted{GrantID: "purchase:pi_1", Amount: 100, Source: SourcePurchase}, day(1)); err != nil {
		t.Fatal(err)
	}
	if err := a.RecordPayment(PaymentRecorded{PaymentID: "pi_1", Kind: PaymentKindCredits, Description: "Auto-recharge: 100 credits",
		AmountCents: 1000, Credits: 100, Status: PaymentPaid, GrantID: "purchase:pi_1", Recharge: "recharge-1"}, day(1)); err != nil {
		t.Fatal(err)
	}
	if v := a.AutoRecharge(day(1)); v.InFlight != "" || v.SpentThisMonth != 1000 {
		t.Fatalf("after payment: %+v", v)
	}
	if b := a.Balance(day(1)); b != 101 {
		t.Fatalf("balance %d, want 101", b)
	}
}

func TestAutoRechargeMonthlyLimit(t *testing.T) {
	// $25 a month, $10 a pack: two recharges fit, the third does not.
	a := recharging(t)
	paid := 0
	for i := 0; i < 200; i++ {
		got := spendAndReview(t, a, "l"+string(rune('a'+i%26))+string(rune('a'+i/26)))
		if len(got) == 1 {
			id, credits, cents, ok := a.PendingRecharge()
			if !ok || cents != 1000 {
				t.Fatalf("pending %v %v", id, ok)
			}
			paid++
			p := "pi_" + id
			_ = a.GrantCredits(CreditsGranted{GrantID: "purchase:" + p, Amount: credits, Source: SourcePurchase}, day(1))
			_ = a.RecordPayment(PaymentRecorded{PaymentID: p, Kind: PaymentKindCredits, AmountCents: cents, Credits: credits,
				Status: PaymentPaid, Recharge: id}, day(1))
		}
		if a.Balance(day(1)) == 0 {
			break
		}
	}
	if paid != 2 {
		t.Fatalf("%d recharges in the month, want 2 ($25 limit, $10 packs)", paid)
	}
	if v := a.AutoRecharge(day(1)); v.SpentThisMonth > v.MonthlyLimitCents {
		t.Fatalf("month %d over limit %d", v.SpentThisMonth, v.MonthlyLimitCents)
	}
	// Next month the limit is fresh.
	a.changes = nil
	next := day(40)
	for i := 0; a.Balance(next) >= 3; i++ {
		_ = a.Spend(OperationListing, "next-"+string(rune('a'+i)), next)
	}
	a.ReviewAutoRecharge(next)
	if got := rechargeTypes(a); len(got) != 1 {
		t.Fatalf("next month: %v, want a request", got)
	}
}

func TestAutoRechargeThreeFailuresTurnItOff(t *testing.T) {
	a := recharging(t, CreditsGranted{GrantID: "p2", Amount: 10, Source: SourcePurchase})
	// Balance 15; spend down to 2 to cross.
	for i := 0; a.Balance(day(1)) > 3; i++ {
		_ = a.Spend(OperationListing, "d"+string(rune('a'+i)), day(1))
	}
	for n := 1; n <= 3; n++ {
		if got := spendAndReview(t, a, "f"+string(rune('0'+n))); len(got) != 1 || got[0] != "RechargeRequested" {
			t.Fatalf("attempt %d: %v", n, got)
		}
		id, _, _, _ := a.PendingRecharge()
		a.changes = nil
		a.RechargeDeclined(id, "pi_"+id, "Your card was declined.", day(1))
		a.RechargeDeclined(id, "pi_"+id, "Your card was declined.", day(1)) // reported twice: once
		// The webhook's failed payment of the same recharge counts nothing more.
		_ = a.RecordPayment(PaymentRecorded{PaymentID: "pi_" + id, Kind: PaymentKindCredits, AmountCents: 1000, Credits: 100,
			Status: PaymentFailed, Recharge: id}, day(1))
		a.ReviewAutoRecharge(day(1))
		want := []string{"RechargeFailed"}
		if n == 3 {
			want = append(want, "AutoRechargeDisabled")
		}
		if got := rechargeTypes(a); len(got) != len(want) || got[len(got)-1] != want[len(want)-1] {
			t.Fatalf("failure %d: %v, want %v", n, got, want)
		}
	}
	v := a.AutoRecharge(day(1))
	if v.Enabled || v.DisabledReason != RechargeDisabledFailures || v.SpentThisMonth != 0 {
		t.Fatalf("after 3 failures: %+v", v)
	}
	_ = a.GrantCredits(CreditsGranted{GrantID: "staff-1", Amount: 1, Source: SourcePurchase}, day(1))
	if got := spendAndReview(t, a, "after"); len(got) != 0 {
		t.Fatalf("turned off yet: %v", got)
	}
}

func TestAutoRechargeNeedsActionWaits(t *testing.T) {
	a := recharging(t)
	for _, ref := range []string{"l1", "l2"} {
		spendAndReview(t, a, ref)
	}
	if got := spendAndReview(t, a, "l3"); len(got) != 1 {
		t.Fatalf("no request: %v", got)
	}
	a.RechargeNeedsAuthentication("recharge-1", "pi_1", day(1))
	if got := spendAndReview(t, a, "l4"); len(got) != 0 {
		t.Fatalf("a new recharge while one waits for authentication: %v", got)
	}
	if v := a.AutoRecharge(day(1)); v.AwaitingAction != "recharge-1" || v.AwaitingPayment != "pi_1" || v.InFlight != "" {
		t.Fatalf("view %+v", v)
	}
	// Paid on the payment page: the purchase path, naming the payment.
	a.changes = nil
	_ = a.GrantCredits(CreditsGranted{GrantID: "purchase:pi_1", Amount: 100, Source: SourcePurchase}, day(1))
	_ = a.RecordPayment(PaymentRecorded{PaymentID: "pi_1", Kind: PaymentKindCredits, AmountCents: 1000, Credits: 100, Status: PaymentPaid}, day(1))
	if v := a.AutoRecharge(day(1)); v.AwaitingAction != "" || v.AwaitingPayment != "" {
		t.Fatalf("after paying: %+v", v)
	}
}

func TestSetAutoRechargeRules(t *testing.T) {
	ok := AutoRecharge{Enabled: true, ThresholdCredits: 10, PackCredits: 100, PackAmountCents: 1000, MonthlyLimitCents: 5000}
	for name, tc := range map[string]struct {
		a    *Account
		s    AutoRecharge
		want error
	}{
		"unverified":      {given(t), ok, ErrAutoRechargeUnverified},
		"no card":         {given(t, EmailVerified{}), ok, ErrNoPaymentMethod},
		"negative":        {recharging(t), AutoRecharge{ThresholdCredits: -1, PackCredits: 100, PackAmountCents: 1000, MonthlyLimitCents: 5000}, nil},
		"limit below":     {recharging(t), AutoRecharge{ThresholdCredits: 1, PackCredits: 100, PackAmountCents: 1000, MonthlyLimitCents: 999}, nil},
		"absurd limit":    {recharging(t), AutoRecharge{ThresholdCredits: 1, PackCredits: 100, PackAmountCents: 1000, MonthlyLimitCents: MaxRechargeMonthlyLimitCents + 1}, nil},
		"absurd treshold": {recharging(t), AutoRecharge{ThresholdCredits: MaxRechargeThreshold + 1, PackCredits: 100, PackAmountCents: 1000, MonthlyLimitCents: 5000}, nil},
	} {
		t.Run(name, func(t *testing.T) {
			a := tc.a
			a.changes = nil
			err := a.SetAutoRecharge(tc.s, day(1))
			if err == nil || ErrorCode(err) != CodeInvalid || (tc.want != nil && err != tc.want) {
				t.Fatalf("SetAutoRecharge: %v, want %v", err, tc.want)
			}
			if len(a.Changes()) != 0 {
				t.Fatalf("refused yet recorded %v", a.Changes())
			}
		})
	}
	a := given(t, EmailVerified{}, PaymentMethodSaved{Brand: "visa", Last4: "4242"})
	if err := a.SetAutoRecharge(ok, day(1)); err != nil || len(a.Changes()) != 1 {
		t.Fatalf("valid: %v %v", err, a.Changes())
	}
	if err := a.SetAutoRecharge(ok, day(1)); err != nil || len(a.Changes()) != 1 {
		t.Fatalf("same again recorded: %v %v", err, a.Changes())
	}
	a.RemovePaymentMethod(day(1))
	if got := rechargeTypes(a); len(got) != 3 || got[2] != "AutoRechargeDisabled" {
		t.Fatalf("card removed: %v", got)
	}
}

func TestAutoRechargeSnapshotRoundTrip(t *testing.T) {
	a := recharging(t)
	for _, ref := range []string{"l1", "l2", "l3"} {
		spendAndReview(t, a, ref)
	}
	data, err := a.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := RestoreSnapshot(testAccountID, 9, data)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := b.AutoRecharge(day(1)), a.AutoRecharge(day(1)); got.InFlight != want.InFlight || got.SpentThisMonth != want.SpentThisMonth || *got.Card != *want.Card {
		t.Fatalf("restored %+v, want %+v", got, want)
	}
}
