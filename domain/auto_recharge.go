package domain

import (
	"fmt"
	"time"
)

// Auto-recharge (issue 33 item 2): the seller saves a card and sets a
// threshold, a pack and a monthly limit; when a spend takes available
// credits below the threshold, the spend's own decision records
// RechargeRequested, the in-flight marker, so however many spends cross at
// once (the stream's lock orders their decisions) only the first requests a
// recharge. The provider is asked afterwards, outside any transaction, by
// the recharge worker (internal/app/command/run_recharges.go); the credits
// are granted only when the payment is reported paid, by the same
// PaymentRecorded and CreditsGranted as a pack purchase, which name the
// recharge (PaymentRecorded.Recharge) and so end it.

// Bounds of the auto-recharge settings.
const (
	// MaxRechargeThreshold is the largest threshold accepted (the alerts'
	// bound: more credits than any seller holds).
	MaxRechargeThreshold = 10_000_000
	// MaxRechargeMonthlyLimitCents is the largest monthly limit, $100,000.
	MaxRechargeMonthlyLimitCents = 10_000_000
	// MaxRechargeFailures failed charges in a row turn auto-recharge off.
	MaxRechargeFailures = 3
)

// Reasons auto-recharge turned itself off (AutoRechargeDisabled.Reason).
const (
	RechargeDisabledFailures      = "failed_charges"
	RechargeDisabledPaymentMethod = "payment_method_removed"
)

// AutoRecharge is the seller's auto-recharge settings. PackAmountCents is
// the catalogue's price of PackCredits when they were set (the application
// layer prices them; this package knows no catalogue).
type AutoRecharge struct {
	Enabled           bool  `json:"enabled"`
	ThresholdCredits  int64 `json:"thresholdCredits"`
	PackCredits       int64 `json:"packCredits"`
	PackAmountCents   int64 `json:"packAmountCents"`
	MonthlyLimitCents int64 `json:"monthlyLimitCents"`
}

// AutoRechargeSet records the seller's auto-recharge settings as they stand
// afterwards.
type AutoRechargeSet AutoRecharge

// PaymentMethodSaved records the card saved for off-session charges: only
// what the dashboard shows. The provider's id of it is kept in an
// operational table (payment_methods), never in events.
type PaymentMethodSaved struct {
	Brand string `json:"brand"`
	Last4 string `json:"last4"`
}

// PaymentMethodRemoved records that the seller removed the saved card.
type PaymentMethodRemoved struct{}

// RechargeRequested is the in-flight marker: a recharge of Credits at
// AmountCents, numbered RechargeID in the account, started because a spend
// left Available credits below Threshold. The recharge worker charges it.
type RechargeRequested struct {
	RechargeID  string `json:"rechargeId"`
	Credits     int64  `json:"credits"`
	AmountCents int64  `json:"amountCents"`
	Threshold   int64  `json:"threshold"`
	Available   int64  `json:"available"`
}

// RechargeFailed records that recharge RechargeID's charge was declined
// (PaymentID, when the provider made one): Failures is the count of failed
// charges in a row.
type RechargeFailed struct {
	RechargeID string `json:"rechargeId"`
	PaymentID  string `json:"paymentId,omitempty"`
	Reason     string `json:"reason"`
	Failures   int    `json:"failures"`
}

// RechargeNeedsAction records that recharge RechargeID's payment PaymentID
// needs the seller's authentication (3-D Secure): the seller is mailed a
// link to pay it, and no other recharge starts until it is paid or the
// settings or card change.
type RechargeNeedsAction struct {
	RechargeID string `json:"rechargeId"`
	PaymentID  string `json:"paymentId"`
}

// AutoRechargeDisabled records that auto-recharge turned itself off, for
// Reason (RechargeDisabledFailures, RechargeDisabledPaymentMethod).
type AutoRechargeDisabled struct {
	Reason string `json:"reason"`
}

func (AutoRechargeSet) EventType() string      { return "AutoRechargeSet" }
func (PaymentMethodSaved) EventType() string   { return "PaymentMethodSaved" }
func (PaymentMethodRemoved) EventType() string { return "PaymentMethodRemoved" }
func (RechargeRequested) EventType() string    { return "RechargeRequested" }
func (RechargeFailed) EventType() string       { return "RechargeFailed" }
func (RechargeNeedsAction) EventType() string  { return "RechargeNeedsAction" }
func (AutoRechargeDisabled) EventType() string { return "AutoRechargeDisabled" }

// Card is a saved card as the dashboard shows it.
type Card struct {
	Brand string `json:"brand"`
	Last4 string `json:"last4"`
}

// recharge is the account's auto-recharge state.
type recharge struct {
	Settings AutoRecharge `json:"settings"`
	Card     *Card        `json:"card,omitempty"`
	// Seq numbers the account's recharges; InFlight is the one being
	// charged ("" for none), InFlightCents its amount.
	Seq           int64  `json:"seq,omitempty"`
	InFlight      string `json:"inFlight,omitempty"`
	InFlightCents int64  `json:"inFlightCents,omitempty"`
	// AwaitingAction is the recharge waiting for the seller's
	// authentication.
	AwaitingAction  string `json:"awaitingAction,omitempty"`
	AwaitingPayment string `json:"awaitingPayment,omitempty"` // its payment's id
	Failures        int    `json:"failures,omitempty"`
	DisabledReason  string `json:"disabledReason,omitempty"`
	// MonthStart is the UTC calendar month MonthCents counts: the amount of
	// the month's recharges not failed.
	MonthStart time.Time `json:"monthStart,omitzero"`
	MonthCents int64     `json:"monthCents,omitempty"`
}

func monthOf(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// apply folds the auto-recharge events, and the payments that end a
// recharge; it reports whether e is one only it reads.
func (r *recharge) apply(e Event, at time.Time) bool {
	switch e := e.(type) {
	case AutoRechargeSet:
		r.Settings = AutoRecharge(e)
		r.Failures, r.DisabledReason, r.AwaitingAction, r.AwaitingPayment = 0, "", "", ""
	case PaymentMethodSaved:
		r.Card = &Card{Brand: e.Brand, Last4: e.Last4}
		r.Failures, r.AwaitingAction, r.AwaitingPayment = 0, "", ""
	case PaymentMethodRemoved:
		r.Card = nil
	case RechargeRequested:
		if m := monthOf(at); !r.MonthStart.Equal(m) {
			r.MonthStart, r.MonthCents = m, 0
		}
		r.MonthCents += e.AmountCents
		r.Seq++
		r.InFlight, r.InFlightCents = e.RechargeID, e.AmountCents
	case RechargeFailed:
		r.fail(e.RechargeID, at)
	case RechargeNeedsAction:
		if r.InFlight == e.RechargeID {
			r.InFlight, r.AwaitingAction, r.AwaitingPayment = "", e.RechargeID, e.PaymentID
		}
	case AutoRechargeDisabled:
		r.Settings.Enabled, r.DisabledReason = false, e.Reason
	case PaymentRecorded:
		// The payment of a recharge: paid ends it (and one waiting for
		// authentication, paid on the payment page, whose payment names
		// it by id). A failed one is recorded as RechargeFailed by the
		// same decision (ReviewAutoRecharge).
		switch {
		case e.Status == PaymentPaid && e.Recharge != "" && r.InFlight == e.Recharge:
			r.InFlight, r.Failures = "", 0
		case e.Status == PaymentPaid && r.AwaitingPayment != "" && e.PaymentID == r.AwaitingPayment:
			r.AwaitingAction, r.AwaitingPayment, r.Failures = "", "", 0
		}
		return false
	default:
		return false
	}
	return true
}

// fail ends in-flight recharge id as failed: one more failure in a row,
// and its amount no longer counts against the month. A recharge that is not
// in flight (its failure reported twice) changes nothing.
func (r *recharge) fail(id string, at time.Time) {
	if id == "" || r.InFlight != id {
		return
	}
	if r.MonthStart.Equal(monthOf(at)) {
		r.MonthCents -= r.InFlightCents
	}
	r.InFlight, r.InFlightCents = "", 0
	r.Failures++
}

// ErrAutoRechargeUnverified refuses auto-recharge on an account whose
// email address is not verified.
var ErrAutoRechargeUnverified = Errorf(CodeInvalid, "Verify your email address before you turn on auto-recharge")

// ErrNoPaymentMethod refuses turning auto-recharge on without a saved card.
var ErrNoPaymentMethod = Errorf(CodeInvalid, "Save a card before you turn on auto-recharge")

// CheckAutoRecharge returns the problem of each field of s, by its JSON
// name; the pack's price is checked by the caller against the catalogue.
func CheckAutoRecharge(s AutoRecharge) map[string]string {
	p := map[string]string{}
	if s.ThresholdCredits < 0 || s.ThresholdCredits > MaxRechargeThreshold {
		p["thresholdCredits"] = "thresholdCredits must be a whole number from 0 to 10,000,000"
	}
	if s.PackAmountCents > 0 && s.MonthlyLimitCents < s.PackAmountCents {
		p["monthlyLimitCents"] = fmt.Sprintf("monthlyLimitCents must be at least the pack's price, %d cents", s.PackAmountCents)
	}
	if s.MonthlyLimitCents < 0 || s.MonthlyLimitCents > MaxRechargeMonthlyLimitCents {
		p["monthlyLimitCents"] = "monthlyLimitCents must be a whole number of cents from the pack's price to 10,000,000"
	}
	return p
}

// AutoRechargeView is the seller's auto-recharge as the dashboard shows it.
type AutoRechargeView struct {
	AutoRecharge
	Card            *Card
	DisabledReason  string
	InFlight        string // the recharge being charged, "" for none
	AwaitingAction  string // the recharge waiting for authentication
	AwaitingPayment string // and its payment
	SpentThisMonth  int64  // cents of this month's recharges
}

// AutoRecharge returns the account's auto-recharge at now.
func (a *Account) AutoRecharge(now time.Time) AutoRechargeView {
	r := a.s.Recharge
	v := AutoRechargeView{AutoRecharge: r.Settings, DisabledReason: r.DisabledReason, InFlight: r.InFlight,
		AwaitingAction: r.AwaitingAction, AwaitingPayment: r.AwaitingPayment}
	if r.Card != nil {
		c := *r.Card
		v.Card = &c
	}
	if r.MonthStart.Equal(monthOf(now)) {
		v.SpentThisMonth = r.MonthCents
	}
	return v
}

// SetAutoRecharge saves s, whose PackAmountCents is the catalogue's price
// of its PackCredits. The account must be verified, and have a card to turn
// it on. Saving the settings it has records nothing.
func (a *Account) SetAutoRecharge(s AutoRecharge, now time.Time) error {
	if !a.s.Verified {
		return ErrAutoRechargeUnverified
	}
	for _, k := range []string{"thresholdCredits", "packCredits", "monthlyLimitCents"} {
		if p, ok := CheckAutoRecharge(s)[k]; ok {
			return Errorf(CodeInvalid, "%s", p)
		}
	}
	if s.PackCredits <= 0 || s.PackAmountCents <= 0 {
		return Errorf(CodeInvalid, "packCredits must be a pack size the catalogue sells")
	}
	if s.Enabled && a.s.Recharge.Card == nil {
		return ErrNoPaymentMethod
	}
	if s == a.s.Recharge.Settings && a.s.Recharge.DisabledReason == "" {
		return nil
	}
	a.record(AutoRechargeSet(s), now)
	return nil
}

// SavePaymentMethod records the card the provider confirmed.
func (a *Account) SavePaymentMethod(c Card, now time.Time) {
	if cur := a.s.Recharge.Card; cur != nil && *cur == c && a.s.Recharge.Failures == 0 && a.s.Recharge.AwaitingAction == "" {
		return
	}
	a.record(PaymentMethodSaved{Brand: c.Brand, Last4: c.Last4}, now)
}

// RemovePaymentMethod records the card's removal, turning auto-recharge off
// if it was on. No card: nothing recorded.
func (a *Account) RemovePaymentMethod(now time.Time) {
	if a.s.Recharge.Card == nil {
		return
	}
	a.record(PaymentMethodRemoved{}, now)
	if a.s.Recharge.Settings.Enabled {
		a.record(AutoRechargeDisabled{Reason: RechargeDisabledPaymentMethod}, now)
	}
}

// RechargeDeclined records that recharge id's charge failed for reason
// (the provider's words); nothing when it is not in flight (its failure
// already reported, by the webhook or the worker).
func (a *Account) RechargeDeclined(id, paymentID, reason string, now time.Time) {
	if a.s.Recharge.InFlight != id {
		return
	}
	a.record(RechargeFailed{RechargeID: id, PaymentID: paymentID, Reason: reason, Failures: a.s.Recharge.Failures + 1}, now)
}

// RechargeNeedsAuthentication records that recharge id's payment needs the
// seller's authentication; nothing when it is not in flight.
func (a *Account) RechargeNeedsAuthentication(id, paymentID string, now time.Time) {
	if a.s.Recharge.InFlight != id {
		return
	}
	a.record(RechargeNeedsAction{RechargeID: id, PaymentID: paymentID}, now)
}

// PendingRecharge is the recharge in flight: its id, credits and amount;
// ok false for none.
func (a *Account) PendingRecharge() (id string, credits, amountCents int64, ok bool) {
	r := a.s.Recharge
	if r.InFlight == "" {
		return "", 0, 0, false
	}
	return r.InFlight, r.Settings.PackCredits, r.InFlightCents, true
}

// ReviewAutoRecharge records what auto-recharge calls for at the end of a
// decision (the repository calls it after every command, like
// ReviewAlerts):
//
//   - RechargeFailed for a failed payment of the recharge in flight that
//     the decision recorded (Stripe's payment_intent.payment_failed), unless
//     the worker recorded the card's refusal first;
//   - AutoRechargeDisabled after MaxRechargeFailures failed charges in a row;
//   - RechargeRequested when the decision spent credits, leaving fewer
//     available than the threshold, auto-recharge is on with a card, no
//     recharge is in flight or waiting for authentication, and the pack's
//     price fits in what the month's limit leaves.
func (a *Account) ReviewAutoRecharge(now time.Time) {
	for _, e := range a.changes { // a failed payment of the recharge in flight (the webhook's)
		if p, ok := e.(PaymentRecorded); ok && p.Status == PaymentFailed && p.Recharge != "" {
			a.RechargeDeclined(p.Recharge, p.PaymentID, "The payment failed.", now)
		}
	}
	r := &a.s.Recharge
	if r.Settings.Enabled && r.Failures >= MaxRechargeFailures {
		a.record(AutoRechargeDisabled{Reason: RechargeDisabledFailures}, now)
		return
	}
	if !r.Settings.Enabled || r.Card == nil || r.InFlight != "" || r.AwaitingAction != "" || !a.spentInDecision() {
		return
	}
	bal := a.s.balance(now)
	if bal >= r.Settings.ThresholdCredits {
		return
	}
	month := int64(0)
	if r.MonthStart.Equal(monthOf(now)) {
		month = r.MonthCents
	}
	if month+r.Settings.PackAmountCents > r.Settings.MonthlyLimitCents {
		return
	}
	a.record(RechargeRequested{RechargeID: fmt.Sprintf("recharge-%d", r.Seq+1), Credits: r.Settings.PackCredits,
		AmountCents: r.Settings.PackAmountCents, Threshold: r.Settings.ThresholdCredits, Available: bal}, now)
}

// spentInDecision reports whether the pending changes spend credits.
func (a *Account) spentInDecision() bool {
	for _, e := range a.changes {
		if _, ok := SpendOf(e); ok {
			return true
		}
	}
	return false
}
