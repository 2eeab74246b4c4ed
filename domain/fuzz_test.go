package domain

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"
	"time"
)

// driver runs commands decoded from bytes on one account, keeping the
// history a store would hold, and checks the account's invariants after
// every command.
type driver struct {
	t       testing.TB
	a       *Account
	history []Recorded
	now     time.Time
	seq     int
}

func newDriver(t testing.TB) *driver {
	t.Helper()
	a, err := Register(testAccountID, "seller@example.com", testKey(1), t0)
	if err != nil {
		t.Fatal(err)
	}
	d := &driver{t: t, a: a, now: t0}
	d.commit(0)
	return d
}

// run decodes program as (operation, argument) byte pairs.
func (d *driver) run(program []byte) {
	for i := 0; i+1 < len(program); i += 2 {
		d.step(program[i], program[i+1])
	}
}

func (d *driver) step(op, arg byte) {
	d.t.Helper()
	n := len(d.a.Changes())
	err := d.command(op, arg)
	if err == nil {
		d.a.ReviewAutoRecharge(d.now) // as the repository's decider does
		d.checkRecharge(n)
	}
	if err != nil {
		if ErrorCode(err) == "" {
			d.t.Fatalf("command %d(%d): not a domain error: %v", op, arg, err)
		}
		if len(d.a.Changes()) != n {
			d.t.Fatalf("command %d(%d) failed with %v but recorded %s", op, arg, err, describe(d.a.Changes()[n:]))
		}
	}
	d.commit(n)
	d.check()
}

// command runs one command chosen by op, with details taken from arg.
func (d *driver) command(op, arg byte) error {
	a, now := d.a, d.now
	d.seq++
	id := strconv.Itoa(d.seq)
	hours := func(n byte) time.Duration { return time.Duration(n) * time.Hour }
	subscriptionID := a.SubscriptionID()
	if subscriptionID == "" || arg%7 == 0 {
		subscriptionID = "sub_" + id
	}
	switch op % 20 {
	case 0:
		d.now = d.now.Add(hours(arg))
		return nil
	case 1:
		return a.Spend(OperationAPIRequest, "r"+id, now)
	case 2:
		return a.RequestListing("l"+id, "B0000"+id, "", now)
	case 3:
		return a.PerformVeroCheck("c"+id, "Acme", arg%2 == 0, now)
	case 4: // a small pool of ids, so that some grants repeat
		return a.GrantCredits(CreditsGranted{GrantID: "pack-" + strconv.Itoa(int(arg%16)), Amount: int64(arg/16) + 1, Source: SourcePurchase}, now)
	case 5: // now and then already expired, which is invalid
		return a.GrantCredits(CreditsGranted{GrantID: "promo-" + id, Amount: int64(arg%20) + 1, Source: SourcePromo, ExpiresAt: ptr(now.Add(hours(arg%100) - time.Hour))}, now)
	case 6:
		return a.GrantCredits(CreditsGranted{GrantID: "adj-" + id, Amount: int64(arg % 5), Source: SourceAdjustment, Reason: "support"}, now)
	case 7:
		return a.Debit(int64(arg%24), "support", now)
	case 8:
		return a.ExpireDue(now)
	case 9: // the next cycle, a cycle starting now, or a stale one
		start := now
		if end := a.PeriodEnd(); end != nil && arg%3 != 0 {
			start = *end
		}
		if arg%5 == 0 {
			start = start.AddDate(0, 0, -30)
		}
		return a.StartOrRenewCycle(subscriptionID, start, start.AddDate(0, 0, 30), int64(arg%8)+1, now)
	case 10:
		return a.MarkPastDue(subscriptionID, now)
	case 11:
		return a.CancelSubscription(now)
	case 12:
		return a.EndSubscription(subscriptionID, now)
	case 13:
		statuses := []string{PaymentPending, PaymentFailed, PaymentPaid}
		return a.RecordPayment(PaymentRecorded{PaymentID: "pi_" + strconv.Itoa(int(arg%4)), Kind: PaymentKindCredits, AmountCents: 999, Status: statuses[arg/4%3], Credits: 100}, now)
	case 14:
		return a.RecordDownload("windows", "2.4.0", now)
	case 15:
		return a.VerifyEmail(now)
	case 16: // small limits, now and then none or out of range
		daily, monthly := ptr(int64(arg%8)), ptr(int64(arg%32))
		if arg%5 == 0 {
			daily = nil
		}
		if arg%7 == 0 {
			monthly = ptr(int64(-1))
		}
		return a.SetSpendLimits(daily, monthly, now)
	case 17: // auto-recharge settings, now and then off, out of range or without a card
		limit := int64(arg%4) * 999
		if arg%9 == 0 {
			limit = -1
		}
		return a.SetAutoRecharge(AutoRecharge{Enabled: arg%3 != 0, ThresholdCredits: int64(arg % 12), PackCredits: 100,
			PackAmountCents: 999, MonthlyLimitCents: limit}, now)
	case 18: // the card, and the outcome of the recharge in flight
		switch arg % 4 {
		case 0:
			a.SavePaymentMethod(Card{Brand: "visa", Last4: "4242"}, now)
		case 1:
			a.RemovePaymentMethod(now)
		case 2:
			if id, _, _, ok := a.PendingRecharge(); ok {
				a.RechargeDeclined(id, "pi_"+id, "declined", now)
			}
		default:
			if id, _, _, ok := a.PendingRecharge(); ok {
				a.RechargeNeedsAuthentication(id, "pi_"+id, now)
			}
		}
		return nil
	case 19: // the recharge in flight paid, through the purchase path
		id, credits, cents, ok := a.PendingRecharge()
		if !ok {
			return nil
		}
		if err := a.GrantCredits(CreditsGranted{GrantID: "purchase:pi_" + id, Amount: credits, Source: SourcePurchase}, now); err != nil {
			return err
		}
		return a.RecordPayment(PaymentRecorded{PaymentID: "pi_" + id, Kind: PaymentKindCredits, AmountCents: cents, Credits: credits,
			Status: PaymentPaid, GrantID: "purchase:pi_" + id, Recharge: id}, now)
	default:
		return a.RotateAPIKey(testKey(int(arg%3)+1), now)
	}
}

// checkRecharge checks auto-recharge's rules on the changes after the
// first n: at most one RechargeRequested, none while another is in flight
// before it, and never past the month's limit.
func (d *driver) checkRecharge(n int) {
	d.t.Helper()
	requests := 0
	for _, e := range d.a.Changes()[n:] {
		if _, ok := e.(RechargeRequested); ok {
			requests++
		}
	}
	if requests > 1 {
		d.t.Fatalf("%d recharges requested by one decision", requests)
	}
	if v := d.a.AutoRecharge(d.now); requests == 1 && v.SpentThisMonth > v.MonthlyLimitCents {
		d.t.Fatalf("recharged %d cents this month, limit %d", v.SpentThisMonth, v.MonthlyLimitCents)
	}
}

// commit stores the account's changes after the first n, stamped d.now, and
// checks that each survives the codec and that its draws add up.
func (d *driver) commit(n int) {
	d.t.Helper()
	for _, e := range d.a.Changes()[n:] {
		typ, version, data, err := EncodeEvent(e)
		if err != nil {
			d.t.Fatal(err)
		}
		if back, err := DecodeEvent(typ, version, data); err != nil || !reflect.DeepEqual(back, e) {
			d.t.Fatalf("codec round trip of %s: %#v, %v", data, back, err)
		}
		switch e := e.(type) {
		case CreditsSpent:
			checkDraws(d.t, e.Amount, e.Draws)
		case CreditsDebited:
			checkDraws(d.t, e.Amount, e.Draws)
		case CreditsExpired:
			if e.Amount <= 0 {
				d.t.Fatalf("expiry of %d credits", e.Amount)
			}
		}
		d.history = append(d.history, Recorded{Version: int64(len(d.history) + 1), At: d.now, Event: e})
	}
}

func checkDraws(t testing.TB, amount int64, draws []Draw) {
	t.Helper()
	var sum int64
	for _, dr := range draws {
		if dr.Amount <= 0 {
			t.Fatalf("draw of %d credits", dr.Amount)
		}
		sum += dr.Amount
	}
	if amount <= 0 || sum != amount {
		t.Fatalf("draws %+v for %d credits", draws, amount)
	}
}

// check verifies the invariants: the balance is never negative and equals
// its grants; the events alone give the same balance and grants; a snapshot
// and a replay of the history restore the same state.
func (d *driver) check() {
	d.t.Helper()
	a, now := d.a, d.now
	balance := a.Balance(now)
	grants := a.Grants(now)
	var sum int64
	for _, g := range grants {
		if g.Remaining <= 0 || g.Remaining > g.Amount || (g.ExpiresAt != nil && !g.ExpiresAt.After(now)) {
			d.t.Fatalf("grant %+v at %v", g, now)
		}
		sum += g.Remaining
	}
	if balance < 0 || balance != sum {
		d.t.Fatalf("balance %d, grants add up to %d", balance, sum)
	}
	events := make([]Event, len(d.history))
	for i, h := range d.history {
		events[i] = h.Event
	}
	checkCreditDelta(d.t, a, events)
	if at := BalanceAt(d.history, now); at != balance {
		d.t.Fatalf("Balance = %d, BalanceAt = %d", balance, at)
	}
	if at := GrantsAt(d.history, now); !reflect.DeepEqual(at, grants) {
		d.t.Fatalf("Grants = %+v, GrantsAt = %+v", grants, at)
	}

	snap, err := a.Snapshot()
	if err != nil {
		d.t.Fatal(err)
	}
	restored, err := RestoreSnapshot(testAccountID, int64(len(d.history)), snap)
	if err != nil {
		d.t.Fatal(err)
	}
	rehydrated, err := Rehydrate(testAccountID, d.history)
	if err != nil {
		d.t.Fatal(err)
	}
	for name, other := range map[string]*Account{"restored": restored, "rehydrated": rehydrated} {
		if again, err := other.Snapshot(); err != nil || !bytes.Equal(again, snap) {
			d.t.Fatalf("%s account differs:\n%s\nwant\n%s", name, again, snap)
		}
	}
}

func FuzzAccountCommands(f *testing.F) {
	f.Add([]byte{9, 1, 1, 0, 2, 0, 3, 1, 0, 200, 1, 0})
	f.Add([]byte{4, 37, 9, 2, 7, 30, 0, 255, 0, 255, 0, 255, 1, 0, 13, 8, 13, 0, 11, 0, 12, 0})
	f.Add([]byte{5, 50, 6, 3, 7, 2, 8, 0, 0, 90, 8, 0, 9, 5, 10, 0, 9, 1, 14, 0, 15, 0, 16, 1})
	f.Fuzz(func(t *testing.T, program []byte) {
		if len(program) > 400 {
			program = program[:400]
		}
		newDriver(t).run(program)
	})
}

// TestSnapshotBehavesLikeRehydrate runs a long random-ish sequence of
// commands, then loads the account from a snapshot and from its history: both
// must show the same account and decide the next commands alike.
func TestSnapshotBehavesLikeRehydrate(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	program := make([]byte, 3000)
	for i := range program {
		program[i] = byte(r.Uint32())
	}
	d := newDriver(t)
	d.run(program)

	kinds := make(map[string]int)
	for _, h := range d.history {
		kinds[h.Event.EventType()]++
	}
	for _, k := range []string{"CreditsSpent", "CreditsDebited", "CreditsExpired", "SubscriptionActivated", "SubscriptionRenewed", "SubscriptionCancelled", "PaymentRecorded"} {
		if kinds[k] == 0 {
			t.Fatalf("the sequence never recorded %s: %v", k, kinds)
		}
	}

	snap, err := d.a.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	restored, err := RestoreSnapshot(testAccountID, int64(len(d.history)), snap)
	if err != nil {
		t.Fatal(err)
	}
	rehydrated, err := Rehydrate(testAccountID, d.history)
	if err != nil {
		t.Fatal(err)
	}
	type view struct {
		Version                 int64
		Email, APIKeyID, APIKey string
		Verified                bool
		Status, SubscriptionID  string
		PeriodEnd, NextExpiry   *time.Time
		Balance                 int64
		Grants                  []Grant
	}
	look := func(a *Account, at time.Time) view {
		return view{
			a.Version(), a.Email(), a.APIKeyID(), a.APIKeyHash(), a.IsVerified(),
			a.SubscriptionStatus(), a.SubscriptionID(), a.PeriodEnd(), a.NextExpiry(),
			a.Balance(at), a.Grants(at),
		}
	}
	// Now, and after every grant held has expired.
	for _, at := range []time.Time{d.now, d.now.AddDate(0, 0, 60)} {
		if got, want := look(restored, at), look(rehydrated, at); !reflect.DeepEqual(got, want) {
			t.Fatalf("at %v: restored %+v\nrehydrated %+v", at, got, want)
		}
		sameNextDecisions(t, at, "restored", restored, "rehydrated", rehydrated,
			func(a *Account) error { return a.Spend(OperationAPIRequest, "next", at) },
			func(a *Account) error { return a.Debit(3, "next", at) })
	}
	if len(restored.Changes()) == 0 {
		t.Fatal("the following commands recorded nothing to compare")
	}
}

// TestStoredAccountDecidesLikeRestored: the account a long sequence of
// commands leaves, once Stored, is the account its snapshot restores (the
// repository keeps it in memory instead of decoding that snapshot): same
// version, no pending changes, the same snapshot bytes, the same next
// decisions.
func TestStoredAccountDecidesLikeRestored(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 17))
	program := make([]byte, 3000)
	for i := range program {
		program[i] = byte(r.Uint32())
	}
	d := newDriver(t)
	d.run(program)
	snap, err := d.a.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	stored := d.a
	stored.Stored()
	if stored.Version() != int64(len(d.history)) || len(stored.Changes()) != 0 {
		t.Fatalf("stored at version %d with %d changes; history of %d", stored.Version(), len(stored.Changes()), len(d.history))
	}
	if _, ok := stored.Caller(); ok {
		t.Fatal("a stored account keeps its caller")
	}
	restored, err := RestoreSnapshot(testAccountID, int64(len(d.history)), snap)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := stored.Snapshot(); err != nil || !bytes.Equal(again, snap) {
		t.Fatalf("stored account's snapshot differs:\n%s\nwant\n%s", again, snap)
	}
	for _, at := range []time.Time{d.now, d.now.AddDate(0, 0, 60)} {
		sameNextDecisions(t, at, "stored", stored, "restored", restored,
			func(a *Account) error { return a.Spend(OperationAPIRequest, "next", at) },
			func(a *Account) error { return a.Debit(3, "next", at) },
			func(a *Account) error { a.ReviewAlerts(at); a.ReviewAutoRecharge(at); return nil })
	}
	if len(stored.Changes()) == 0 {
		t.Fatal("the following commands recorded nothing to compare")
	}
	a, b := stored.Snapshot()
	c, e := restored.Snapshot()
	if b != nil || e != nil || !bytes.Equal(a, c) {
		t.Fatalf("after the next commands: stored\n%s\nrestored\n%s", a, c)
	}
}

// sameNextDecisions runs each command on both accounts, in order, and fails
// when their outcomes or recorded changes differ.
func sameNextDecisions(t *testing.T, at time.Time, nameA string, a *Account, nameB string, b *Account, commands ...func(*Account) error) {
	t.Helper()
	for _, next := range commands {
		errA, errB := next(a), next(b)
		if ErrorCode(errA) != ErrorCode(errB) || !reflect.DeepEqual(a.Changes(), b.Changes()) {
			t.Fatalf("at %v the next command differs: %s (%v)\n%s\n%s (%v)\n%s",
				at, nameA, errA, describe(a.Changes()), nameB, errB, describe(b.Changes()))
		}
	}
}
