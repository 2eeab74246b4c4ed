package domain

import "testing"

// A credit pack of 100 credits for $9.99, paid as pi_1 and granted as
// purchase:pi_1.
var (
	pack     = CreditsGranted{GrantID: "purchase:pi_1", Amount: 100, Source: SourcePurchase, Reference: "pi_1"}
	packPaid = PaymentRecorded{PaymentID: "pi_1", Kind: PaymentKindCredits, Description: "100 credits",
		AmountCents: 999, Status: PaymentPaid, Credits: 100, GrantID: "purchase:pi_1"}
	cycleGrant = monthlyFor("sub_1", day(0), day(30))
	cyclePaid  = PaymentRecorded{PaymentID: "in_1", Kind: PaymentKindSubscription, Description: "Monthly Plan",
		AmountCents: 2999, Status: PaymentPaid, Credits: 500, GrantID: cycleGrant.GrantID}
)

// spentFrom is n credits spent from grant.
func spentFrom(grant string, n int64) CreditsSpent {
	return CreditsSpent{Amount: n, Operation: OperationAPIRequest, Reference: "r", Draws: []Draw{{GrantID: grant, Amount: n}}}
}

func TestRefundPayment(t *testing.T) {
	refund := func(id string, cents int64) func(a *Account) error {
		return func(a *Account) error { return a.RefundPayment(id, cents, day(1)) }
	}
	run(t, []scenario{
		{
			name:  "a whole refund of an unspent pack takes its credits",
			given: []Event{pack, packPaid},
			when:  refund("pi_1", 999),
			then: []Event{
				PaymentRefunded{PaymentID: "pi_1", AmountCents: 999, Status: PaymentRefundedInFull},
				CreditsRevoked{PaymentID: "pi_1", Share: 100, Amount: 100, Reason: RevokedForRefund, Draws: []Draw{{GrantID: pack.GrantID, Amount: 100}}},
			},
		},
		{
			name:  "a partial refund takes the refunded share",
			given: []Event{pack, packPaid},
			when:  refund("pi_1", 500),
			then: []Event{
				PaymentRefunded{PaymentID: "pi_1", AmountCents: 500, Status: PaymentPartiallyRefunded},
				CreditsRevoked{PaymentID: "pi_1", Share: 50, Amount: 50, Reason: RevokedForRefund, Draws: []Draw{{GrantID: pack.GrantID, Amount: 50}}},
			},
		},
		{
			name: "a second partial refund takes only what is new",
			given: []Event{pack, packPaid, PaymentRefunded{PaymentID: "pi_1", AmountCents: 500, Status: PaymentPartiallyRefunded},
				CreditsRevoked{PaymentID: "pi_1", Share: 50, Amount: 50, Reason: RevokedForRefund, Draws: []Draw{{GrantID: pack.GrantID, Amount: 50}}}},
			when: refund("pi_1", 999),
			then: []Event{
				PaymentRefunded{PaymentID: "pi_1", AmountCents: 999, Status: PaymentRefundedInFull},
				CreditsRevoked{PaymentID: "pi_1", Share: 50, Amount: 50, Reason: RevokedForRefund, Draws: []Draw{{GrantID: pack.GrantID, Amount: 50}}},
			},
		},
		{
			name:  "a repeated or older total is a no-op",
			given: []Event{pack, packPaid, PaymentRefunded{PaymentID: "pi_1", AmountCents: 999, Status: PaymentRefundedInFull}},
			when:  refund("pi_1", 500),
		},
		{
			name:  "spent credits: the other credits go next, the rest is debt, the balance stays at zero",
			given: []Event{pack, packPaid, spentFrom(pack.GrantID, 90), CreditsGranted{GrantID: "adj", Amount: 30, Source: SourceAdjustment, Reason: "goodwill"}},
			when:  refund("pi_1", 999),
			then: []Event{
				PaymentRefunded{PaymentID: "pi_1", AmountCents: 999, Status: PaymentRefundedInFull},
				CreditsRevoked{PaymentID: "pi_1", Share: 100, Amount: 40, Debt: 60, Reason: RevokedForRefund,
					Draws: []Draw{{GrantID: pack.GrantID, Amount: 10}, {GrantID: "adj", Amount: 30}}},
			},
		},
		{
			name:  "a refunded cycle expires that cycle's monthly credits only; spent ones are not owed",
			given: []Event{activated, cycleGrant, cyclePaid, pack, packPaid, spentFrom(cycleGrant.GrantID, 200)},
			when:  refund("in_1", 2999),
			then: []Event{
				PaymentRefunded{PaymentID: "in_1", AmountCents: 2999, Status: PaymentRefundedInFull},
				CreditsRevoked{PaymentID: "in_1", Share: 500, Amount: 300, Reason: RevokedForRefund,
					Draws: []Draw{{GrantID: cycleGrant.GrantID, Amount: 300}}},
			},
		},
		{
			name:    "an unknown payment",
			when:    refund("pi_x", 100),
			wantErr: CodeNotFound,
		},
	})
}

func TestDebtIsRepaidFirstAndSpendingWaits(t *testing.T) {
	a := given(t, pack, packPaid, spentFrom(pack.GrantID, 100))
	if err := a.RefundPayment("pi_1", 999, day(1)); err != nil {
		t.Fatal(err)
	}
	if a.CreditDebt() != 100 || a.Balance(day(1)) != 0 {
		t.Fatalf("debt %d, balance %d; want 100, 0", a.CreditDebt(), a.Balance(day(1)))
	}
	if err := a.Spend(OperationAPIRequest, "r2", day(1)); ErrorCode(err) != CodeInsufficientCredits {
		t.Fatalf("spend with debt: %v", err)
	}
	if err := a.GrantCredits(CreditsGranted{GrantID: "g2", Amount: 150, Source: SourcePurchase}, day(2)); err != nil {
		t.Fatal(err)
	}
	if a.CreditDebt() != 0 || a.Balance(day(2)) != 50 {
		t.Fatalf("after a grant: debt %d, balance %d; want 0, 50", a.CreditDebt(), a.Balance(day(2)))
	}
	changes := a.Changes()
	if last, ok := changes[len(changes)-1].(DebtRepaid); !ok || last.Amount != 100 || last.Draws[0].GrantID != "g2" {
		t.Fatalf("last change = %#v, want DebtRepaid of 100 from g2", changes[len(changes)-1])
	}
	checkCreditDelta(t, a, append(append(opening(), pack, packPaid, spentFrom(pack.GrantID, 100)), changes...))
}

func TestDisputes(t *testing.T) {
	open := DisputeOpened{DisputeID: "dp_1", PaymentID: "pi_1", AmountCents: 999}
	run(t, []scenario{
		{
			name:  "a dispute opens once",
			given: []Event{pack, packPaid},
			when:  func(a *Account) error { return a.OpenDispute("dp_1", "pi_1", 999, day(1)) },
			then:  []Event{open},
		},
		{
			name:  "a known dispute is a no-op",
			given: []Event{pack, packPaid, open},
			when:  func(a *Account) error { return a.OpenDispute("dp_1", "pi_1", 999, day(1)) },
		},
		{
			name:    "spending is frozen while it is open",
			given:   []Event{pack, packPaid, open},
			when:    func(a *Account) error { return a.Spend(OperationAPIRequest, "r", day(1)) },
			wantErr: CodeForbidden,
			wantMsg: ErrorMessage(ErrSpendingFrozen),
		},
		{
			name:  "won: the credits stay",
			given: []Event{pack, packPaid, open},
			when:  func(a *Account) error { return a.CloseDispute("dp_1", "pi_1", true, day(2)) },
			then:  []Event{DisputeClosed{DisputeID: "dp_1", PaymentID: "pi_1", Outcome: DisputeWon, PaymentStatus: PaymentPaid}},
		},
		{
			name:  "lost: the credits go, spent ones become debt",
			given: []Event{pack, packPaid, open, spentFrom(pack.GrantID, 30)},
			when:  func(a *Account) error { return a.CloseDispute("dp_1", "pi_1", false, day(2)) },
			then: []Event{
				DisputeClosed{DisputeID: "dp_1", PaymentID: "pi_1", Outcome: DisputeLost, PaymentStatus: PaymentChargedBack},
				CreditsRevoked{PaymentID: "pi_1", Share: 100, Amount: 70, Debt: 30, Reason: RevokedForDisputeLost,
					Draws: []Draw{{GrantID: pack.GrantID, Amount: 70}}},
			},
		},
		{
			name:  "a close without its opening records both",
			given: []Event{pack, packPaid},
			when:  func(a *Account) error { return a.CloseDispute("dp_1", "pi_1", true, day(2)) },
			then: []Event{
				DisputeOpened{DisputeID: "dp_1", PaymentID: "pi_1"},
				DisputeClosed{DisputeID: "dp_1", PaymentID: "pi_1", Outcome: DisputeWon, PaymentStatus: PaymentPaid},
			},
		},
		{
			name:  "a closed dispute stays closed",
			given: []Event{pack, packPaid, open, DisputeClosed{DisputeID: "dp_1", PaymentID: "pi_1", Outcome: DisputeWon, PaymentStatus: PaymentPaid}},
			when:  func(a *Account) error { return a.CloseDispute("dp_1", "pi_1", false, day(3)) },
		},
	})
	a := given(t, pack, packPaid, open, DisputeClosed{DisputeID: "dp_1", PaymentID: "pi_1", Outcome: DisputeWon, PaymentStatus: PaymentPaid})
	if a.SpendingFrozen() {
		t.Fatal("still frozen after the dispute was won")
	}
	if err := a.Spend(OperationAPIRequest, "r", day(3)); err != nil {
		t.Fatalf("spend after the dispute was won: %v", err)
	}
}

func TestCloseDisputeOfAnUnknownPaymentIsNotFound(t *testing.T) {
	a := given(t)
	if err := a.CloseDispute("dp_9", "pi_9", false, day(1)); ErrorCode(err) != CodeNotFound {
		t.Fatalf("err = %v", err)
	}
	thenEvents(t, a)
}

func TestNextExpiryIncludesACancellationsEnd(t *testing.T) {
	// The cycle's credits are all spent: only the cancellation's end is due.
	a := given(t, activated, monthlyFor("sub_1", day(0), day(30)), spentFrom(monthlyFor("sub_1", day(0), day(30)).GrantID, 500),
		SubscriptionCancelled{SubscriptionID: "sub_1", EndsAt: day(30)})
	if next := a.NextExpiry(); next == nil || !next.Equal(day(30)) {
		t.Fatalf("next expiry = %v, want the cancellation's end %v", next, day(30))
	}
	if err := a.ExpireDue(day(30)); err != nil {
		t.Fatal(err)
	}
	thenEvents(t, a, SubscriptionEnded{SubscriptionID: "sub_1"})
	if a.NextExpiry() != nil {
		t.Fatalf("next expiry after the end = %v", a.NextExpiry())
	}
}
