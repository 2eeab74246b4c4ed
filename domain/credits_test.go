package domain

import (
	"reflect"
	"testing"
	"time"

	"github.com/google/uuid"
)

// Grants the credit tests start from. The monthly cycle runs from day 0 to
// day 30; the promo ends on day 10.
var (
	monthly = CreditsGranted{GrantID: "monthly:sub_1:1740830400", Amount: 500, Source: SourceMonthly, ExpiresAt: ptr(day(30))}
	promo   = CreditsGranted{GrantID: "promo-1", Amount: 20, Source: SourcePromo, ExpiresAt: ptr(day(10))}
	packA   = CreditsGranted{GrantID: "pack-a", Amount: 100, Source: SourcePurchase, Reference: "pi_a"}
	packB   = CreditsGranted{GrantID: "pack-b", Amount: 500, Source: SourcePurchase, Reference: "pi_b"}
)

func grantOf(id string, amount int64, source string, expiresAt *time.Time) CreditsGranted {
	return CreditsGranted{GrantID: id, Amount: amount, Source: source, ExpiresAt: expiresAt}
}

func spent(operation, reference string, draws ...Draw) CreditsSpent {
	return CreditsSpent{Amount: 1, Operation: operation, Reference: reference, Draws: draws}
}

func TestGrantCredits(t *testing.T) {
	adjustment := CreditsGranted{GrantID: "adj-1", Amount: 5, Source: SourceAdjustment, Reason: "outage on May 2"}
	run(t, []scenario{
		{
			name: "purchase",
			when: func(a *Account) error { return a.GrantCredits(packA, day(1)) },
			then: []Event{packA},
		},
		{
			name: "promo that expires",
			when: func(a *Account) error { return a.GrantCredits(promo, day(1)) },
			then: []Event{promo},
		},
		{
			name: "adjustment with a reason",
			when: func(a *Account) error { return a.GrantCredits(adjustment, day(1)) },
			then: []Event{adjustment},
		},
		{
			name:    "zero amount",
			when:    func(a *Account) error { return a.GrantCredits(grantOf("g", 0, SourcePurchase, nil), day(1)) },
			wantErr: CodeInvalid,
		},
		{
			name:    "negative amount",
			when:    func(a *Account) error { return a.GrantCredits(grantOf("g", -5, SourcePurchase, nil), day(1)) },
			wantErr: CodeInvalid,
		},
		{
			name:    "unknown source",
			when:    func(a *Account) error { return a.GrantCredits(grantOf("g", 5, "gift", nil), day(1)) },
			wantErr: CodeInvalid,
		},
		{
			name:    "purchase that expires",
			when:    func(a *Account) error { return a.GrantCredits(grantOf("g", 5, SourcePurchase, ptr(day(40))), day(1)) },
			wantErr: CodeInvalid,
		},
		{
			name:    "monthly credits that never expire",
			when:    func(a *Account) error { return a.GrantCredits(grantOf("g", 5, SourceMonthly, nil), day(1)) },
			wantErr: CodeInvalid,
		},
		{
			name:    "expiry in the past",
			when:    func(a *Account) error { return a.GrantCredits(grantOf("g", 5, SourcePromo, ptr(day(1))), day(2)) },
			wantErr: CodeInvalid,
		},
		{
			name:    "expiry at now",
			when:    func(a *Account) error { return a.GrantCredits(grantOf("g", 5, SourcePromo, ptr(day(2))), day(2)) },
			wantErr: CodeInvalid,
		},
		{
			name:    "adjustment without a reason",
			when:    func(a *Account) error { return a.GrantCredits(grantOf("g", 5, SourceAdjustment, nil), day(1)) },
			wantErr: CodeInvalid,
		},
		{
			name:  "duplicate grant id",
			given: []Event{packA},
			when:  func(a *Account) error { return a.GrantCredits(packA, day(1)) },
		},
		{
			name:  "duplicate grant id of a grant spent to nothing",
			given: []Event{grantOf("pack-a", 1, SourcePurchase, nil), spent(OperationAPIRequest, "r1", Draw{"pack-a", 1})},
			when:  func(a *Account) error { return a.GrantCredits(grantOf("pack-a", 1, SourcePurchase, nil), day(1)) },
		},
		{
			name:  "duplicate grant id of an expired grant, now past its expiry",
			given: []Event{promo, CreditsExpired{GrantID: "promo-1", Amount: 20}},
			when:  func(a *Account) error { return a.GrantCredits(promo, day(11)) },
		},
		{
			name:  "a grant after an expiry time expires the due grant first",
			given: []Event{promo},
			when:  func(a *Account) error { return a.GrantCredits(packA, day(10)) },
			then:  []Event{CreditsExpired{GrantID: "promo-1", Amount: 20}, packA},
		},
	})
}

func TestGrantCreditsGeneratesAMissingID(t *testing.T) {
	a := given(t)
	if err := a.GrantCredits(CreditsGranted{Amount: 10, Source: SourcePurchase}, day(1)); err != nil {
		t.Fatal(err)
	}
	g := a.Changes()[0].(CreditsGranted)
	if _, err := uuid.Parse(g.GrantID); err != nil {
		t.Fatalf("grant id %q: %v", g.GrantID, err)
	}
	if got := a.Grants(day(1)); len(got) != 1 || got[0].ID != g.GrantID {
		t.Fatalf("grants %+v", got)
	}
}

func TestSpend(t *testing.T) {
	run(t, []scenario{
		{
			name:    "no credits",
			when:    func(a *Account) error { return a.Spend(OperationAPIRequest, "r1", day(1)) },
			wantErr: CodeInsufficientCredits,
			wantMsg: "Insufficient credits",
		},
		{
			name:    "unknown operation",
			given:   []Event{packA},
			when:    func(a *Account) error { return a.Spend("coffee", "r1", day(1)) },
			wantErr: CodeInvalid,
		},
		{
			name:  "the monthly grant burns before purchases",
			given: []Event{packA, monthly, packB},
			when:  func(a *Account) error { return a.Spend(OperationAPIRequest, "r1", day(1)) },
			then:  []Event{spent(OperationAPIRequest, "r1", Draw{monthly.GrantID, 1})},
		},
		{
			name:  "the soonest expiry burns first",
			given: []Event{monthly, promo},
			when:  func(a *Account) error { return a.Spend(OperationAPIRequest, "r1", day(1)) },
			then:  []Event{spent(OperationAPIRequest, "r1", Draw{"promo-1", 1})},
		},
		{
			name: "after the monthly grant, the oldest purchase",
			given: []Event{
				packA, monthly, packB,
				CreditsDebited{Amount: 500, Reason: "test", Draws: []Draw{{monthly.GrantID, 500}}},
			},
			when: func(a *Account) error { return a.Spend(OperationAPIRequest, "r1", day(1)) },
			then: []Event{spent(OperationAPIRequest, "r1", Draw{"pack-a", 1})},
		},
		{
			name: "after the oldest purchase, the next one",
			given: []Event{
				grantOf("pack-a", 1, SourcePurchase, nil), packB,
				spent(OperationAPIRequest, "r0", Draw{"pack-a", 1}),
			},
			when: func(a *Account) error { return a.Spend(OperationAPIRequest, "r1", day(1)) },
			then: []Event{spent(OperationAPIRequest, "r1", Draw{"pack-b", 1})},
		},
		{
			name:  "past the expiry, before its event: the expiry comes first, then the purchase pays",
			given: []Event{monthly, packA},
			when:  func(a *Account) error { return a.Spend(OperationAPIRequest, "r1", day(31)) },
			then: []Event{
				CreditsExpired{GrantID: monthly.GrantID, Amount: 500},
				spent(OperationAPIRequest, "r1", Draw{"pack-a", 1}),
			},
		},
		{
			name:  "at the very moment of expiry the grant is gone",
			given: []Event{monthly, packA},
			when:  func(a *Account) error { return a.Spend(OperationAPIRequest, "r1", day(30)) },
			then: []Event{
				CreditsExpired{GrantID: monthly.GrantID, Amount: 500},
				spent(OperationAPIRequest, "r1", Draw{"pack-a", 1}),
			},
		},
		{
			name:    "past the expiry with nothing else: insufficient, and nothing recorded",
			given:   []Event{monthly},
			when:    func(a *Account) error { return a.Spend(OperationAPIRequest, "r1", day(31)) },
			wantErr: CodeInsufficientCredits,
		},
		{
			name:  "a listing request pays and records the request",
			given: []Event{packA},
			when: func(a *Account) error {
				return a.RequestListing("l1", "B000000001", "https://www.amazon.com/dp/B000000001", day(1))
			},
			then: []Event{
				ListingRequested{ListingID: "l1", ASIN: "B000000001", AmazonURL: "https://www.amazon.com/dp/B000000001",
					Spent: ptr(spent(OperationListing, "l1", Draw{"pack-a", 1}))},
			},
		},
		{
			name:    "a listing request without credits records nothing",
			given:   []Event{monthly},
			when:    func(a *Account) error { return a.RequestListing("l1", "B000000001", "", day(31)) },
			wantErr: CodeInsufficientCredits,
		},
		{
			name:    "a listing request without a product",
			given:   []Event{packA},
			when:    func(a *Account) error { return a.RequestListing("l1", "", "", day(1)) },
			wantErr: CodeInvalid,
		},
		{
			name:    "a listing request without an id",
			given:   []Event{packA},
			when:    func(a *Account) error { return a.RequestListing("", "B000000001", "", day(1)) },
			wantErr: CodeInvalid,
		},
		{
			name:  "a VeRO check pays and records its outcome",
			given: []Event{packA},
			when:  func(a *Account) error { return a.PerformVeroCheck("c1", "Acme", true, day(1)) },
			then: []Event{
				VeroCheckPerformed{CheckID: "c1", Brand: "Acme", Protected: true,
					Spent: ptr(spent(OperationVeroCheck, "c1", Draw{"pack-a", 1}))},
			},
		},
		{
			name:    "a VeRO check without credits",
			when:    func(a *Account) error { return a.PerformVeroCheck("c1", "Acme", false, day(1)) },
			wantErr: CodeInsufficientCredits,
		},
		{
			name:    "a VeRO check without a brand",
			given:   []Event{packA},
			when:    func(a *Account) error { return a.PerformVeroCheck("c1", "", false, day(1)) },
			wantErr: CodeInvalid,
		},
	})
}

func TestDebit(t *testing.T) {
	small := func(id string, n int64) CreditsGranted { return grantOf(id, n, SourcePurchase, nil) }
	run(t, []scenario{
		{
			name:  "draws across grants: expiring first, then purchases oldest first",
			given: []Event{small("p1", 3), grantOf("m", 2, SourceMonthly, ptr(day(30))), small("p2", 5)},
			when:  func(a *Account) error { return a.Debit(6, "chargeback", day(1)) },
			then: []Event{CreditsDebited{Amount: 6, Reason: "chargeback", Draws: []Draw{
				{"m", 2}, {"p1", 3}, {"p2", 1},
			}}},
		},
		{
			name:  "the whole balance",
			given: []Event{small("p1", 3)},
			when:  func(a *Account) error { return a.Debit(3, "chargeback", day(1)) },
			then:  []Event{CreditsDebited{Amount: 3, Reason: "chargeback", Draws: []Draw{{"p1", 3}}}},
		},
		{
			name:    "more than the balance",
			given:   []Event{small("p1", 3)},
			when:    func(a *Account) error { return a.Debit(4, "chargeback", day(1)) },
			wantErr: CodeInsufficientCredits,
		},
		{
			name:    "expired credits do not count",
			given:   []Event{small("p1", 3), monthly},
			when:    func(a *Account) error { return a.Debit(4, "chargeback", day(30)) },
			wantErr: CodeInsufficientCredits,
		},
		{
			name:  "an expiry due is recorded first",
			given: []Event{small("p1", 3), monthly},
			when:  func(a *Account) error { return a.Debit(3, "chargeback", day(30)) },
			then: []Event{
				CreditsExpired{GrantID: monthly.GrantID, Amount: 500},
				CreditsDebited{Amount: 3, Reason: "chargeback", Draws: []Draw{{"p1", 3}}},
			},
		},
		{
			name:    "zero",
			given:   []Event{small("p1", 3)},
			when:    func(a *Account) error { return a.Debit(0, "chargeback", day(1)) },
			wantErr: CodeInvalid,
		},
		{
			name:    "negative",
			given:   []Event{small("p1", 3)},
			when:    func(a *Account) error { return a.Debit(-1, "chargeback", day(1)) },
			wantErr: CodeInvalid,
		},
		{
			name:    "no reason",
			given:   []Event{small("p1", 3)},
			when:    func(a *Account) error { return a.Debit(1, " ", day(1)) },
			wantErr: CodeInvalid,
		},
	})
}

func TestExpireDue(t *testing.T) {
	run(t, []scenario{
		{
			name:  "only the unspent remainder expires",
			given: []Event{monthly, packA, spent(OperationAPIRequest, "r1", Draw{monthly.GrantID, 1}), spent(OperationAPIRequest, "r2", Draw{monthly.GrantID, 1})},
			when:  func(a *Account) error { return a.ExpireDue(day(30)) },
			then:  []Event{CreditsExpired{GrantID: monthly.GrantID, Amount: 498}},
		},
		{
			name:  "each due grant, soonest first",
			given: []Event{monthly, promo, packA},
			when:  func(a *Account) error { return a.ExpireDue(day(31)) },
			then: []Event{
				CreditsExpired{GrantID: "promo-1", Amount: 20},
				CreditsExpired{GrantID: monthly.GrantID, Amount: 500},
			},
		},
		{
			name:  "only grants due by now",
			given: []Event{monthly, promo},
			when:  func(a *Account) error { return a.ExpireDue(day(10)) },
			then:  []Event{CreditsExpired{GrantID: "promo-1", Amount: 20}},
		},
		{
			name:  "before the expiry",
			given: []Event{monthly},
			when:  func(a *Account) error { return a.ExpireDue(day(29)) },
		},
		{
			name:  "a grant spent to nothing has nothing to expire",
			given: []Event{grantOf("m", 1, SourceMonthly, ptr(day(30))), spent(OperationAPIRequest, "r1", Draw{"m", 1})},
			when:  func(a *Account) error { return a.ExpireDue(day(31)) },
		},
		{
			name:  "an expired grant expires once",
			given: []Event{monthly, CreditsExpired{GrantID: monthly.GrantID, Amount: 500}},
			when:  func(a *Account) error { return a.ExpireDue(day(31)) },
		},
	})
}

func TestBalanceGrantsAndNextExpiry(t *testing.T) {
	a := given(t, packA, monthly, promo, packB)
	want := []Grant{
		{ID: "promo-1", Source: SourcePromo, Amount: 20, Remaining: 20, ExpiresAt: ptr(day(10)), GrantedAt: t0.Add(4 * time.Minute)},
		{ID: monthly.GrantID, Source: SourceMonthly, Amount: 500, Remaining: 500, ExpiresAt: ptr(day(30)), GrantedAt: t0.Add(3 * time.Minute)},
		{ID: "pack-a", Source: SourcePurchase, Amount: 100, Remaining: 100, GrantedAt: t0.Add(2 * time.Minute)},
		{ID: "pack-b", Source: SourcePurchase, Amount: 500, Remaining: 500, GrantedAt: t0.Add(5 * time.Minute)},
	}
	if got := a.Grants(day(1)); !reflect.DeepEqual(got, want) {
		t.Fatalf("Grants(day 1) =\n%+v\nwant\n%+v", got, want)
	}
	if b := a.Balance(day(1)); b != 1120 {
		t.Fatalf("Balance(day 1) = %d", b)
	}
	if got := a.Grants(day(10)); !reflect.DeepEqual(got, want[1:]) {
		t.Fatalf("Grants(day 10) = %+v", got)
	}
	if b := a.Balance(day(10)); b != 1100 {
		t.Fatalf("Balance(day 10) = %d", b)
	}
	if b := a.Balance(day(30)); b != 600 {
		t.Fatalf("Balance(day 30) = %d", b)
	}
	if next := a.NextExpiry(); next == nil || !next.Equal(day(10)) {
		t.Fatalf("NextExpiry = %v", next)
	}
	// Copies: changing what the account returns does not change the account.
	*a.NextExpiry() = day(99)
	*a.Grants(day(1))[0].ExpiresAt = day(99)
	if next := a.NextExpiry(); !next.Equal(day(10)) {
		t.Fatalf("NextExpiry after changing a copy = %v", next)
	}

	if err := a.ExpireDue(day(10)); err != nil {
		t.Fatal(err)
	}
	if next := a.NextExpiry(); next == nil || !next.Equal(day(30)) {
		t.Fatalf("NextExpiry after the promo expired = %v", next)
	}
	if next := given(t, packA).NextExpiry(); next != nil {
		t.Fatalf("NextExpiry without expiring grants = %v", next)
	}
	// A grant past its expiry but not yet expired still wakes the sweeper.
	if next := given(t, promo).NextExpiry(); next == nil || !next.Equal(day(10)) {
		t.Fatalf("NextExpiry of a due grant = %v", next)
	}
}

func TestCreditBreakdown(t *testing.T) {
	a := given(t, packA, monthly, promo, packB)
	want := Breakdown{Monthly: 500, MonthlyExpireAt: ptr(day(30)), Purchased: 600, Other: 20}
	if got := a.CreditBreakdown(day(1)); !reflect.DeepEqual(got, want) {
		t.Fatalf("CreditBreakdown(day 1) = %+v, want %+v", got, want)
	}
	if got := a.CreditBreakdown(day(1)); got.Monthly+got.Purchased+got.Other != a.Balance(day(1)) {
		t.Fatalf("the parts %+v do not add up to the balance %d", got, a.Balance(day(1)))
	}
	// Past the cycle's end the monthly credits are gone and name no expiry.
	if got := a.CreditBreakdown(day(30)); !reflect.DeepEqual(got, Breakdown{Purchased: 600}) {
		t.Fatalf("CreditBreakdown(day 30) = %+v", got)
	}
	if got := given(t).CreditBreakdown(day(1)); !reflect.DeepEqual(got, Breakdown{}) {
		t.Fatalf("CreditBreakdown of no grants = %+v", got)
	}
}

func TestBalanceAtAndGrantsAt(t *testing.T) {
	hour := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Hour) }
	history := []Recorded{
		{Version: 1, At: t0, Event: opening()[0]},
		{Version: 2, At: t0, Event: opening()[1]},
		{Version: 3, At: hour(1), Event: packA},
		{Version: 4, At: hour(2), Event: monthly},
		{Version: 5, At: hour(3), Event: spent(OperationAPIRequest, "r1", Draw{monthly.GrantID, 1})},
		// The sweeper ran an hour after the cycle's end.
		{Version: 6, At: day(30).Add(time.Hour), Event: CreditsExpired{GrantID: monthly.GrantID, Amount: 499}},
	}
	pack := Grant{ID: "pack-a", Source: SourcePurchase, Amount: 100, Remaining: 100, GrantedAt: hour(1)}
	month := Grant{ID: monthly.GrantID, Source: SourceMonthly, Amount: 500, Remaining: 500, ExpiresAt: ptr(day(30)), GrantedAt: hour(2)}
	monthAfterSpend := month
	monthAfterSpend.Remaining = 499
	for _, tc := range []struct {
		name    string
		at      time.Time
		balance int64
		grants  []Grant
	}{
		{"before any grant", t0, 0, nil},
		{"just before the purchase", hour(1).Add(-time.Nanosecond), 0, nil},
		{"at the purchase", hour(1), 100, []Grant{pack}},
		{"at the monthly grant", hour(2), 600, []Grant{month, pack}},
		{"at the spend", hour(3), 599, []Grant{monthAfterSpend, pack}},
		{"just before the expiry time", day(30).Add(-time.Nanosecond), 599, []Grant{monthAfterSpend, pack}},
		{"at the expiry time, before its event", day(30), 100, []Grant{pack}},
		{"after the expiry event", day(31), 100, []Grant{pack}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := BalanceAt(history, tc.at); got != tc.balance {
				t.Errorf("BalanceAt = %d, want %d", got, tc.balance)
			}
			if got := GrantsAt(history, tc.at); !reflect.DeepEqual(got, tc.grants) {
				t.Errorf("GrantsAt =\n%+v\nwant\n%+v", got, tc.grants)
			}
		})
	}
}
