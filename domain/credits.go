package domain

import (
	"cmp"
	"slices"
	"time"

	"github.com/google/uuid"
)

// MonthlyCredits is what each paid billing cycle grants (spec section 9).
const MonthlyCredits = 500

// Grant is a credit grant with credits left. Its JSON form is part of the
// snapshot format.
type Grant struct {
	ID        string     `json:"id"`
	Source    string     `json:"source"`
	Amount    int64      `json:"amount"`    // as granted
	Remaining int64      `json:"remaining"` // not yet spent, debited or expired
	ExpiresAt *time.Time `json:"expiresAt,omitempty"`
	GrantedAt time.Time  `json:"grantedAt"`
	// Reminded: its expiry reminder was sent (ExpiryReminderSent).
	Reminded bool `json:"reminded,omitempty"`
}

// Balance returns the credits spendable at now: the remaining credits of
// the grants not expired at now.
func (a *Account) Balance(now time.Time) int64 { return a.s.balance(now) }

// Grants returns the grants spendable at now, in the order spends burn them.
func (a *Account) Grants(now time.Time) []Grant { return a.s.live(now) }

// Breakdown is a balance split by where its credits came from; the three
// amounts add up to the balance.
type Breakdown struct {
	Monthly         int64      // the subscription's, which expire at their cycle's end
	MonthlyExpireAt *time.Time // the earliest expiry of monthly credits left; nil when none are left
	Purchased       int64      // credit packs', which never expire
	Other           int64      // promotional and support-granted
}

// CreditBreakdown splits the balance at now by the grants' sources.
func (a *Account) CreditBreakdown(now time.Time) Breakdown {
	var b Breakdown
	for _, g := range a.s.live(now) {
		switch g.Source {
		case SourceMonthly:
			if g.Remaining > 0 && g.ExpiresAt != nil && (b.MonthlyExpireAt == nil || g.ExpiresAt.Before(*b.MonthlyExpireAt)) {
				b.MonthlyExpireAt = timePtr(g.ExpiresAt.UTC())
			}
			b.Monthly += g.Remaining
		case SourcePurchase:
			b.Purchased += g.Remaining
		default:
			b.Other += g.Remaining
		}
	}
	return b
}

// NextExpiry returns the earliest expiry among the grants with credits left,
// past ones included, or the end of a cancelling subscription if sooner, or
// nil when neither comes: the moment ExpireDue has work to do.
func (a *Account) NextExpiry() *time.Time {
	var next *time.Time
	for _, g := range a.s.Grants {
		if g.ExpiresAt != nil && (next == nil || g.ExpiresAt.Before(*next)) {
			next = g.ExpiresAt
		}
	}
	if sub := a.s.Subscription; sub.Status == StatusCancelling && !sub.Ended && sub.EndsAt != nil &&
		(next == nil || sub.EndsAt.Before(*next)) {
		next = sub.EndsAt
	}
	if next == nil {
		return nil
	}
	return timePtr(*next)
}

// BalanceAt returns the balance at t from a stream alone: the events recorded
// at or before t, without the grants expired at t.
func BalanceAt(history []Recorded, t time.Time) int64 { return stateAt(history, t).balance(t) }

// GrantsAt returns the grants spendable at t, in burn order, from a stream
// alone (see BalanceAt).
func GrantsAt(history []Recorded, t time.Time) []Grant { return stateAt(history, t).live(t) }

func stateAt(history []Recorded, t time.Time) *state {
	var s state
	for _, r := range history {
		if !r.At.After(t) {
			s.apply(r.Event, r.At)
		}
	}
	return &s
}

// GrantCredits adds the credits of g. The amount must be positive and the
// source known; purchased credits never expire, monthly credits must, and an
// expiry must be after now; an adjustment needs a staff reason (StaffReason). An empty GrantID
// gets a random one; a GrantID granted before makes the call a no-op.
func (a *Account) GrantCredits(g CreditsGranted, now time.Time) error {
	switch {
	case g.Amount <= 0:
		return Errorf(CodeInvalid, "The credit amount must be positive")
	case g.Source != SourceMonthly && g.Source != SourcePurchase && g.Source != SourceAdjustment && g.Source != SourcePromo:
		return Errorf(CodeInvalid, "Unknown credit source %q", g.Source)
	case g.Source == SourcePurchase && g.ExpiresAt != nil:
		return Errorf(CodeInvalid, "Purchased credits never expire")
	case g.Source == SourceMonthly && g.ExpiresAt == nil:
		return Errorf(CodeInvalid, "Monthly credits expire at the end of their billing cycle")
	}
	if g.Source == SourceAdjustment {
		if _, err := StaffReason(g.Reason); err != nil {
			return err
		}
	}
	if g.GrantID == "" {
		g.GrantID = uuid.NewString()
	}
	if a.s.GrantIDs[g.GrantID] {
		return nil
	}
	if g.ExpiresAt != nil && !g.ExpiresAt.After(now) {
		return Errorf(CodeInvalid, "Credits must expire after they are granted")
	}
	a.expireDue(now)
	a.record(g, now)
	a.repayDebt(g.GrantID, g.Amount, now)
	return nil
}

// Spend takes 1 credit for operation (OperationListing, OperationVeroCheck
// or OperationAPIRequest); reference names what was paid for.
func (a *Account) Spend(operation, reference string, now time.Time) error {
	if operation != OperationListing && operation != OperationVeroCheck && operation != OperationAPIRequest {
		return Errorf(CodeInvalid, "Unknown operation %q", operation)
	}
	spent, err := a.spend(operation, reference, now)
	if err != nil {
		return err
	}
	a.record(spent, now)
	return nil
}

// RequestListing pays 1 credit for a request to copy the Amazon product
// asin (or at amazonURL) to eBay as listing listingID.
func (a *Account) RequestListing(listingID, asin, amazonURL string, now time.Time) error {
	if listingID == "" {
		return Errorf(CodeInvalid, "A listing id is required")
	}
	if asin == "" && amazonURL == "" {
		return Errorf(CodeInvalid, "An ASIN or an Amazon URL is required")
	}
	spent, err := a.spend(OperationListing, listingID, now)
	if err != nil {
		return err
	}
	a.record(ListingRequested{ListingID: listingID, ASIN: asin, AmazonURL: amazonURL, Spent: &spent}, now)
	return nil
}

// PerformVeroCheck pays 1 credit for VeRO check checkID of brand and records
// its outcome.
func (a *Account) PerformVeroCheck(checkID, brand string, protected bool, now time.Time) error {
	if checkID == "" || brand == "" {
		return Errorf(CodeInvalid, "A check id and a brand are required")
	}
	spent, err := a.spend(OperationVeroCheck, checkID, now)
	if err != nil {
		return err
	}
	a.record(VeroCheckPerformed{CheckID: checkID, Brand: brand, Protected: protected, Spent: &spent}, now)
	return nil
}

// spend decides the charge of 1 credit for operation, recording the
// expiries due first; the caller records the charge, alone (Spend) or
// carried by the operation's event (RequestListing, PerformVeroCheck), so a
// spend is one event.
func (a *Account) spend(operation, reference string, now time.Time) (CreditsSpent, error) {
	if a.SpendingFrozen() {
		return CreditsSpent{}, ErrSpendingFrozen
	}
	if err := a.checkSpendLimits(1, now); err != nil {
		return CreditsSpent{}, err
	}
	draws, err := a.s.draws(1, now)
	if err != nil {
		return CreditsSpent{}, err
	}
	a.expireDue(now)
	e := CreditsSpent{Amount: 1, Operation: operation, Reference: reference, Draws: draws}
	if k := a.caller; k != nil {
		e.KeyID, e.KeyName, e.KeyPrefix = k.ID, k.Name, k.Prefix
	}
	return e, nil
}

// Debit removes amount credits by a staff adjustment, drawn like a spend.
// It never takes the balance below zero; reason must pass StaffReason.
func (a *Account) Debit(amount int64, reason string, now time.Time) error {
	if amount <= 0 {
		return Errorf(CodeInvalid, "The debit amount must be positive")
	}
	if _, err := StaffReason(reason); err != nil {
		return err
	}
	draws, err := a.s.draws(amount, now)
	if err != nil {
		return err
	}
	a.expireDue(now)
	a.record(CreditsDebited{Amount: amount, Reason: reason, Draws: draws}, now)
	return nil
}

// ExpireDue records CreditsExpired for the unspent remainder of every grant
// whose expiry is at or before now.
func (a *Account) ExpireDue(now time.Time) error {
	a.expireDue(now)
	return nil
}

// expireDue is the expiry step every credit command takes first, so that
// history shows an expiry before the change that follows it.
func (a *Account) expireDue(now time.Time) {
	var due []Grant
	for _, g := range a.s.Grants {
		if g.ExpiresAt != nil && !g.ExpiresAt.After(now) {
			due = append(due, g)
		}
	}
	slices.SortStableFunc(due, burnOrder)
	for _, g := range due {
		a.record(CreditsExpired{GrantID: g.ID, Amount: g.Remaining}, now)
	}
	a.endDueCancellation(now)
}

// draws returns where amount credits come from at now, in burn order, or
// CodeInsufficientCredits when the balance does not cover it.
func (s *state) draws(amount int64, now time.Time) ([]Draw, error) {
	var draws []Draw
	left := amount
	for _, g := range s.live(now) {
		if left == 0 {
			break
		}
		n := min(left, g.Remaining)
		draws = append(draws, Draw{GrantID: g.ID, Amount: n})
		left -= n
	}
	if left > 0 {
		return nil, Errorf(CodeInsufficientCredits, "Insufficient credits")
	}
	return draws, nil
}

func (s *state) balance(now time.Time) int64 {
	var sum int64
	for _, g := range s.Grants {
		if spendable(g, now) {
			sum += g.Remaining
		}
	}
	return sum
}

// live returns copies of the grants spendable at now, in burn order.
func (s *state) live(now time.Time) []Grant {
	var live []Grant
	for _, g := range s.Grants {
		if spendable(g, now) {
			if g.ExpiresAt != nil {
				g.ExpiresAt = timePtr(*g.ExpiresAt)
			}
			live = append(live, g)
		}
	}
	slices.SortStableFunc(live, burnOrder)
	return live
}

// spendable reports whether g is not expired at now.
func spendable(g Grant, now time.Time) bool { return g.ExpiresAt == nil || g.ExpiresAt.After(now) }

// burnOrder orders grants soonest expiry first, then grants that never
// expire; a stable sort keeps ties in the order granted (oldest first).
func burnOrder(x, y Grant) int {
	switch {
	case x.ExpiresAt == nil && y.ExpiresAt == nil:
		return 0
	case x.ExpiresAt == nil:
		return 1
	case y.ExpiresAt == nil:
		return -1
	}
	return cmp.Compare(x.ExpiresAt.UnixNano(), y.ExpiresAt.UnixNano())
}
