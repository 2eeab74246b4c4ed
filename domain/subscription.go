package domain

import (
	"fmt"
	"slices"
	"time"
)

// SubscriptionStatus returns StatusInactive, StatusActive, StatusCancelling,
// StatusPastDue or StatusCancelled, as recorded.
func (a *Account) SubscriptionStatus() string { return a.s.Subscription.Status }

// SubscriptionStatusAt is the status at now: a cancelling subscription
// whose end has come is cancelled, even before SubscriptionEnded is recorded.
func (a *Account) SubscriptionStatusAt(now time.Time) string { return a.s.Subscription.statusAt(now) }

func (s subscription) statusAt(now time.Time) string { return StatusAt(s.Status, s.EndsAt, now) }

// StatusAt is the subscription status at now of one recorded as status,
// ending at endsAt when cancelling: a cancelling subscription whose end has
// come is cancelled. Read models that keep the status and the end apply
// the same rule.
func StatusAt(status string, endsAt *time.Time, now time.Time) string {
	if status == StatusCancelling && (endsAt == nil || !now.Before(*endsAt)) {
		return StatusCancelled
	}
	return status
}

// apply changes s by a subscription event recorded at at; false (and no
// change) for any other event. The account's state and the read models'
// summary (SubscriptionSummary.After) both fold subscription events here.
func (s *subscription) apply(e Event, at time.Time) bool {
	switch e := e.(type) {
	case SubscriptionActivated:
		*s = subscription{ID: e.SubscriptionID, Status: StatusActive, PeriodEnd: timePtr(e.PeriodEnd)}
	case SubscriptionRenewed:
		*s = subscription{ID: e.SubscriptionID, Status: StatusActive, PeriodEnd: timePtr(e.PeriodEnd)}
	case SubscriptionPastDue:
		s.Status = StatusPastDue
	case SubscriptionCancelled:
		s.Status = StatusCancelling
		s.EndsAt = timePtr(e.EndsAt)
		s.ChangedAt = timePtr(at)
	case SubscriptionResumed:
		s.Status = StatusActive
		s.EndsAt = nil
		s.PeriodEnd = timePtr(e.PeriodEnd)
		s.ChangedAt = timePtr(at)
	case SubscriptionEnded:
		// An end that overtook the subscription's first paid cycle names
		// it while none runs (EndSubscription): it is the last one then.
		if s.ID == "" {
			s.ID = e.SubscriptionID
		}
		s.Status = StatusCancelled
		s.Ended = true
	default:
		return false
	}
	return true
}

// SubscriptionSummary is a subscription as read models keep it: the
// status as recorded (StatusAt gives it at a moment), the renewal date while
// it renews (active or past due) and the end of a cancelling one.
type SubscriptionSummary struct {
	Status   string
	RenewsAt *time.Time
	EndsAt   *time.Time
}

// After is the summary after e, recorded at at, as an Account folds it;
// false, and sum unchanged, when e is not a subscription event. A read model
// stores what this says rather than working the status out itself.
func (sum SubscriptionSummary) After(e Event, at time.Time) (SubscriptionSummary, bool) {
	s := subscription{Status: sum.Status, PeriodEnd: sum.RenewsAt, EndsAt: sum.EndsAt}
	if !s.apply(e, at) {
		return sum, false
	}
	next := SubscriptionSummary{Status: s.Status}
	if s.PeriodEnd != nil && (s.Status == StatusActive || s.Status == StatusPastDue) {
		next.RenewsAt = timePtr(*s.PeriodEnd)
	}
	if s.EndsAt != nil && s.Status == StatusCancelling {
		next.EndsAt = timePtr(*s.EndsAt)
	}
	return next, true
}

// SubscriptionEndsAt is when a cancelling subscription ends, nil otherwise.
func (a *Account) SubscriptionEndsAt() *time.Time {
	if a.s.Subscription.Status != StatusCancelling || a.s.Subscription.EndsAt == nil {
		return nil
	}
	return timePtr(*a.s.Subscription.EndsAt)
}

// SubscriptionChangedAt is when the seller last cancelled or resumed the
// subscription, nil for never.
func (a *Account) SubscriptionChangedAt() *time.Time {
	if a.s.Subscription.ChangedAt == nil {
		return nil
	}
	return timePtr(*a.s.Subscription.ChangedAt)
}

// HasPremiumAccess reports whether the subscription's benefits (the
// software) are available at now: active, or cancelling before its end.
// A past due subscription has none until its invoice is paid
// (docs/payments.md, grace period).
func (a *Account) HasPremiumAccess(now time.Time) bool {
	return StatusHasPremiumAccess(a.SubscriptionStatusAt(now))
}

// StatusHasPremiumAccess reports whether a subscription in status gives
// the plan's benefits: active, or cancelling before its end.
func StatusHasPremiumAccess(status string) bool {
	return status == StatusActive || status == StatusCancelling
}

// StatusAllowsSubscribing reports whether a seller whose subscription is
// in status may start one: only with none running (active, cancelling and
// past due ones are managed, resumed or paid instead).
func StatusAllowsSubscribing(status string) bool {
	return status != StatusActive && status != StatusCancelling && status != StatusPastDue
}

// SubscriptionID returns the id of the current or last subscription, "" for
// none.
func (a *Account) SubscriptionID() string { return a.s.Subscription.ID }

// PeriodEnd returns the end of the current or last paid billing period, nil
// for none.
func (a *Account) PeriodEnd() *time.Time {
	if a.s.Subscription.PeriodEnd == nil {
		return nil
	}
	return timePtr(*a.s.Subscription.PeriodEnd)
}

// StartOrRenewCycle records a paid billing cycle of subscriptionID from
// periodStart to periodEnd. It activates a subscription when there is none
// running (never subscribed, ended, cancelled and past its end, or another
// subscription) and renews the running one otherwise, past_due included.
// A period end only moves forward: a cycle ending at or before the current
// period end is a duplicate or late delivery and a no-op.
//
// A new cycle expires what is due, then grants monthlyCredits expiring at
// periodEnd under a grant id derived from the subscription and periodStart.
// A cycle already over at now grants nothing.
//
// A subscription that ended stays ended: a paid cycle of it that started
// before its end but arrives after it (Stripe delivers out of order)
// records the cycle and its grant as it would have before the end, then
// the end again, so that the account ends as it does when the events come
// in order.
func (a *Account) StartOrRenewCycle(subscriptionID string, periodStart, periodEnd time.Time, monthlyCredits int64, now time.Time) error {
	switch {
	case subscriptionID == "":
		return Errorf(CodeInvalid, "A subscription id is required")
	case !periodEnd.After(periodStart):
		return Errorf(CodeInvalid, "A billing period must end after it starts")
	case monthlyCredits <= 0:
		return Errorf(CodeInvalid, "The monthly credits must be positive")
	}
	sub := a.s.Subscription
	ended := a.s.endedBefore(subscriptionID, periodStart)
	if ended && sub.ID != subscriptionID && !StatusAllowsSubscribing(sub.statusAt(now)) {
		return nil // another subscription runs: an ended one's cycle changes nothing of it
	}
	if sub.PeriodEnd != nil && !periodEnd.After(*sub.PeriodEnd) {
		return nil
	}
	a.expireDue(now)
	if sub.startsNew(subscriptionID, now) {
		a.record(SubscriptionActivated{SubscriptionID: subscriptionID, PeriodStart: periodStart, PeriodEnd: periodEnd}, now)
	} else {
		a.record(SubscriptionRenewed{SubscriptionID: subscriptionID, PeriodStart: periodStart, PeriodEnd: periodEnd}, now)
	}
	if periodEnd.After(now) {
		err := a.GrantCredits(CreditsGranted{
			GrantID:   MonthlyGrantID(subscriptionID, periodStart),
			Amount:    monthlyCredits,
			Source:    SourceMonthly,
			ExpiresAt: &periodEnd,
		}, now)
		if err != nil {
			return err
		}
	}
	if ended {
		a.record(SubscriptionEnded{SubscriptionID: subscriptionID}, now)
	}
	return nil
}

// MonthlyGrantID is the grant id of subscriptionID's cycle starting at
// periodStart.
func MonthlyGrantID(subscriptionID string, periodStart time.Time) string {
	return fmt.Sprintf("monthly:%s:%d", subscriptionID, periodStart.Unix())
}

// startsNew reports whether a paid cycle of subscriptionID at now starts a
// subscription rather than renewing the one s describes.
func (s subscription) startsNew(subscriptionID string, now time.Time) bool {
	switch {
	case s.Status == StatusInactive || s.Ended || s.ID != subscriptionID:
		return true
	case s.Status == StatusCancelled || s.Status == StatusCancelling:
		return s.EndsAt == nil || !now.Before(*s.EndsAt)
	}
	return false
}

// MarkPastDue records a failed renewal payment of subscriptionID. Only an
// active subscription becomes past due; otherwise it is a no-op.
func (a *Account) MarkPastDue(subscriptionID string, now time.Time) error {
	if subscriptionID == "" {
		return Errorf(CodeInvalid, "A subscription id is required")
	}
	if a.s.Subscription.Status != StatusActive || a.s.Subscription.ID != subscriptionID {
		return nil
	}
	a.record(SubscriptionPastDue{SubscriptionID: subscriptionID}, now)
	return nil
}

// CancelSubscription cancels the subscription. An active one is cancelled
// at the end of its paid period (cancelling): access and the cycle's
// monthly credits last until then, and ResumeSubscription undoes it. A past
// due one, whose period is not paid, ends at once.
func (a *Account) CancelSubscription(now time.Time) error {
	sub := a.s.Subscription
	switch sub.statusAt(now) {
	case StatusActive:
		if sub.PeriodEnd == nil {
			return Errorf(CodeConflict, "No active subscription to cancel")
		}
		a.record(SubscriptionCancelled{SubscriptionID: sub.ID, EndsAt: *sub.PeriodEnd}, now)
		return nil
	case StatusPastDue:
		a.record(SubscriptionEnded{SubscriptionID: sub.ID}, now)
		return nil
	case StatusCancelling:
		return Errorf(CodeConflict, "Your subscription is already cancelled; it stays active until %s", sub.EndsAt.Format(dateLayout))
	}
	return Errorf(CodeConflict, "No active subscription to cancel")
}

// ResumeSubscription undoes a pending cancellation before the period ends:
// the subscription renews again as usual.
func (a *Account) ResumeSubscription(now time.Time) error {
	sub := a.s.Subscription
	if sub.statusAt(now) != StatusCancelling || sub.PeriodEnd == nil {
		return Errorf(CodeConflict, "There is no cancellation to undo")
	}
	a.record(SubscriptionResumed{SubscriptionID: sub.ID, PeriodEnd: *sub.PeriodEnd}, now)
	return nil
}

// endDueCancellation records the end of a cancelling subscription whose
// period is over: the period end is what makes it cancelled.
func (a *Account) endDueCancellation(now time.Time) {
	sub := a.s.Subscription
	if sub.Status == StatusCancelling && !sub.Ended && sub.statusAt(now) == StatusCancelled {
		a.record(SubscriptionEnded{SubscriptionID: sub.ID}, now)
	}
}

// dateLayout is how the domain's messages write a date.
const dateLayout = "January 2, 2006"

// EndSubscription records that subscriptionID is over; the status becomes
// cancelled. An end that overtakes the subscription's first paid cycle is
// recorded while no other subscription runs, so that the late cycle cannot
// start it (StartOrRenewCycle). It is a no-op when that subscription has
// already ended or another one runs.
func (a *Account) EndSubscription(subscriptionID string, now time.Time) error {
	if subscriptionID == "" {
		return Errorf(CodeInvalid, "A subscription id is required")
	}
	sub := a.s.Subscription
	_, ended := a.s.EndedSubscriptions[subscriptionID]
	if ended || (sub.ID == subscriptionID && sub.Ended) || (sub.ID != subscriptionID && !StatusAllowsSubscribing(sub.statusAt(now))) {
		return nil
	}
	a.record(SubscriptionEnded{SubscriptionID: subscriptionID}, now)
	return nil
}

// RecordDownload records a download of the desktop software, which needs
// premium access (HasPremiumAccess).
func (a *Account) RecordDownload(platform, version string, now time.Time) error {
	if !a.HasPremiumAccess(now) {
		return Errorf(CodeForbidden, "Subscription Required: You need an active subscription to download the software")
	}
	if platform == "" {
		return Errorf(CodeInvalid, "A platform is required")
	}
	a.record(SoftwareDownloaded{Platform: platform, Version: version}, now)
	return nil
}

// RecordPayment records a payment's outcome for the transactions list. The
// kind and status must be known and the amounts not negative. A payment id
// is recorded once per status, and not at all after it was paid: a repeat
// or a late, older status is a no-op.
func (a *Account) RecordPayment(p PaymentRecorded, now time.Time) error {
	switch {
	case p.PaymentID == "":
		return Errorf(CodeInvalid, "A payment id is required")
	case p.Kind != PaymentKindSubscription && p.Kind != PaymentKindCredits:
		return Errorf(CodeInvalid, "Unknown payment kind %q", p.Kind)
	case p.Status != PaymentPaid && p.Status != PaymentPending && p.Status != PaymentFailed && p.Status != PaymentNeedsReview:
		return Errorf(CodeInvalid, "Unknown payment status %q", p.Status)
	case p.AmountCents < 0 || p.Credits < 0:
		return Errorf(CodeInvalid, "Payment amounts must not be negative")
	}
	seen := a.s.Payments[p.PaymentID]
	if slices.Contains(seen, p.Status) || slices.Contains(seen, PaymentPaid) {
		return nil
	}
	a.record(p, now)
	return nil
}
