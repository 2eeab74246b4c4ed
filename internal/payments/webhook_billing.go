package payments

// The webhook events that pay for, change or end a subscription, and those
// that pay for credits: each read into the change Apply makes (webhooks.go).

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/stripe/stripe-go/v82"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/catalog"
)

// onInvoice handles invoice.paid (a paid cycle: activate or renew, grant the
// cycle's credits, a paid transaction) and invoice.payment_failed (a failed
// transaction; past due unless that period is paid already).
func (s *Service) onInvoice(ctx context.Context, ev stripe.Event) (change, error) {
	var inv stripe.Invoice
	if err := decodeObject(ev, &inv, "invoice"); err != nil {
		return change{}, err
	}
	if inv.Parent == nil || inv.Parent.SubscriptionDetails == nil || inv.Parent.SubscriptionDetails.Subscription == nil {
		return ignore("not a subscription invoice"), nil
	}
	details := inv.Parent.SubscriptionDetails
	subscriptionID := details.Subscription.ID
	start, end, ok := invoicePeriod(&inv)
	if !ok {
		return change{}, domain.Errorf(domain.CodeInvalid, "invoice %s has no subscription period", inv.ID)
	}
	accountID, err := s.accountFor(ctx, inv.Customer, details.Metadata)
	if err != nil || accountID == "" {
		return ignore("unknown customer"), err
	}
	plan := catalog.MonthlyPlan()
	p := domain.PaymentRecorded{
		PaymentID: inv.ID, Kind: KindSubscription, Description: planDescription(plan, start, end),
		InvoiceURL: inv.HostedInvoiceURL, Credits: plan.Credits,
	}
	c := change{accountID: accountID, settles: &settlement{byInvoice: true, id: inv.ID}}
	if ev.Type == stripe.EventTypeInvoicePaid {
		p.Status, p.AmountCents, c.settles.status = domain.PaymentPaid, inv.AmountPaid, intentSucceeded
		p.GrantID = domain.MonthlyGrantID(subscriptionID, start)
		voided, err := s.checkoutVoided(ctx, inv.ID)
		if err != nil {
			return change{}, err
		}
		c.apply = func(a *domain.Account, at time.Time) error {
			if cur := a.SubscriptionID(); voided || (cur != "" && cur != subscriptionID && running(a, at)) {
				// One subscription per seller: a second one's payment grants
				// nothing; staff refund it (docs/payments.md).
				s.log.ErrorContext(ctx, "paid invoice of a subscription that is not the seller's current one; flagged for staff, nothing granted",
					"event", ev.ID, "invoice", inv.ID, "subscription", subscriptionID, "current", cur, "voided", voided, "account", accountID)
				flagged := p
				flagged.Status, flagged.GrantID = domain.PaymentNeedsReview, ""
				return a.RecordPayment(flagged, at)
			}
			// Staleness, as customer.subscription.updated's: a cancellation
			// recorded after this payment was made cancels the period it
			// pays (Stripe's cancel_at_period_end), so a renewal that
			// arrives after it must not undo it.
			status := a.SubscriptionStatus()
			keepCancel := a.SubscriptionID() == subscriptionID && staleFor(a, ev) &&
				(status == domain.StatusCancelling || status == domain.StatusCancelled)
			if err := a.StartOrRenewCycle(subscriptionID, start, end, plan.Credits, at); err != nil {
				return err
			}
			if keepCancel && a.SubscriptionStatusAt(at) == domain.StatusActive {
				if err := a.CancelSubscription(at); err != nil {
					return err
				}
			}
			return a.RecordPayment(p, at)
		}
		return c, nil
	}
	p.Status, p.AmountCents, c.settles.status = domain.PaymentFailed, inv.AmountDue, intentFailed
	c.apply = func(a *domain.Account, at time.Time) error {
		if err := a.RecordPayment(p, at); err != nil {
			return err
		}
		if paid := a.PeriodEnd(); paid != nil && !end.After(*paid) {
			return nil // that period is paid: a late delivery of an earlier attempt
		}
		return a.MarkPastDue(subscriptionID, at)
	}
	return c, nil
}

// invoicePeriod is the billing period an invoice pays for: the latest
// period among its subscription lines.
func invoicePeriod(inv *stripe.Invoice) (start, end time.Time, ok bool) {
	if inv.Lines == nil {
		return time.Time{}, time.Time{}, false
	}
	for _, l := range inv.Lines.Data {
		if l.Period == nil || l.Parent == nil || l.Parent.Type != stripe.InvoiceLineItemParentTypeSubscriptionItemDetails {
			continue
		}
		if e := time.Unix(l.Period.End, 0).UTC(); !ok || e.After(end) {
			start, end, ok = time.Unix(l.Period.Start, 0).UTC(), e, true
		}
	}
	return start, end, ok
}

// onSubscription handles customer.subscription.updated and .deleted. They
// only move the status: past due, cancelled at period end, or ended.
// Activation, renewal and the period end belong to invoice.paid alone, so an
// update that arrives before its invoice.paid cannot cost the cycle's
// grant, and a late one cannot move the period back.
func (s *Service) onSubscription(ctx context.Context, ev stripe.Event) (change, error) {
	var sub stripe.Subscription
	if err := decodeObject(ev, &sub, "subscription"); err != nil {
		return change{}, err
	}
	accountID, err := s.accountFor(ctx, sub.Customer, sub.Metadata)
	if err != nil || accountID == "" {
		return ignore("unknown customer"), err
	}
	c := change{accountID: accountID}
	switch {
	case sub.Status == stripe.SubscriptionStatusIncompleteExpired:
		// Its first invoice was never paid: it never ran, and no paid
		// cycle of it can come.
		c.ignored = "status incomplete_expired: it never started"
	case ev.Type == stripe.EventTypeCustomerSubscriptionDeleted || sub.Status == stripe.SubscriptionStatusCanceled:
		if c.staff, err = s.staffAttribution(ctx, accountID, actionStaffCancelNow, sub.ID, 0, -1); err != nil {
			return change{}, err
		}
		c.apply = func(a *domain.Account, at time.Time) error { return a.EndSubscription(sub.ID, at) }
	case sub.CancelAtPeriodEnd || sub.CancelAt != 0:
		if c.staff, err = s.staffAttribution(ctx, accountID, actionStaffCancel, sub.ID, 0, -1); err != nil {
			return change{}, err
		}
		c.retryUnknown = true
		c.apply = func(a *domain.Account, at time.Time) error {
			if a.SubscriptionID() != sub.ID && !running(a, at) {
				// A cancellation that overtook the subscription's first
				// invoice.paid: Stripe redelivers it once that is in.
				return domain.Errorf(domain.CodeNotFound, "subscription %s is not recorded as started yet", sub.ID)
			}
			if a.SubscriptionID() != sub.ID || a.SubscriptionStatusAt(at) != domain.StatusActive || staleFor(a, ev) {
				return nil // another subscription, or not active (already cancelling, past due or ended)
			}
			return a.CancelSubscription(at)
		}
	case sub.Status == stripe.SubscriptionStatusActive:
		// Not cancelling any more: a cancellation undone in the portal.
		// Otherwise activation and renewal wait for invoice.paid.
		c.unchanged = "status active: nothing to record until its invoice is paid"
		c.apply = func(a *domain.Account, at time.Time) error {
			if a.SubscriptionID() != sub.ID || a.SubscriptionStatusAt(at) != domain.StatusCancelling || staleFor(a, ev) {
				return nil
			}
			return a.ResumeSubscription(at)
		}
	case sub.Status == stripe.SubscriptionStatusPastDue || sub.Status == stripe.SubscriptionStatusUnpaid:
		periodEnd := subscriptionPeriodEnd(&sub)
		c.apply = func(a *domain.Account, at time.Time) error {
			if paid := a.PeriodEnd(); paid != nil && !periodEnd.After(*paid) {
				return nil // the period it is past due for is paid: a late delivery
			}
			return a.MarkPastDue(sub.ID, at)
		}
	default:
		c.ignored = fmt.Sprintf("status %s: nothing to record until its invoice is paid", sub.Status)
	}
	return c, nil
}

// staleFor reports whether ev was created before the seller's last cancel
// or resume: Stripe delivers out of order, and an older update must not
// undo a newer decision. Stripe's times are whole seconds.
func staleFor(a *domain.Account, ev stripe.Event) bool {
	changed := a.SubscriptionChangedAt()
	return changed != nil && time.Unix(ev.Created, 0).Before(changed.Truncate(time.Second))
}

// subscriptionPeriodEnd is the latest current period end among the
// subscription's items.
func subscriptionPeriodEnd(sub *stripe.Subscription) time.Time {
	var end int64
	if sub.Items != nil {
		for _, it := range sub.Items.Data {
			end = max(end, it.CurrentPeriodEnd)
		}
	}
	return time.Unix(end, 0).UTC()
}

// onPaymentIntent handles payment_intent.succeeded (grant the purchased
// credits, a paid transaction) and payment_intent.payment_failed (a failed
// transaction) for credit purchases; the PaymentIntents of subscription
// invoices are the invoice events' business. The amount and currency must
// be the catalogue's price of the credits in the metadata.
func (s *Service) onPaymentIntent(ctx context.Context, ev stripe.Event) (change, error) {
	var pi stripe.PaymentIntent
	if err := decodeObject(ev, &pi, "payment intent"); err != nil {
		return change{}, err
	}
	if pi.Metadata[metaKind] != KindCredits {
		return ignore("not a credit purchase"), nil
	}
	credits, _ := strconv.ParseInt(pi.Metadata[metaCredits], 10, 64) // not a count: 0 or out of range, refused below
	if !catalog.Charges(credits, pi.Amount, string(pi.Currency)) {
		s.log.ErrorContext(ctx, "payment intent does not match the catalogue; nothing granted",
			"event", ev.ID, "paymentIntent", pi.ID, "credits", pi.Metadata[metaCredits], "amount", pi.Amount, "currency", pi.Currency)
		return ignore("amount does not match the catalogue"), nil
	}
	accountID, err := s.accountFor(ctx, pi.Customer, pi.Metadata)
	if err != nil || accountID == "" {
		return ignore("unknown customer"), err
	}
	p := domain.PaymentRecorded{
		PaymentID: pi.ID, Kind: KindCredits, Description: catalog.CreditsDescription(credits), AmountCents: pi.Amount, Credits: credits,
		Recharge: rechargeOf(pi.Metadata), // an auto-recharge's (recharge.go)
	}
	if p.Recharge != "" {
		p.Description = accounts.RechargeDescription(credits)
	}
	c := change{accountID: accountID, settles: &settlement{id: pi.ID}}
	if ev.Type == stripe.EventTypePaymentIntentSucceeded {
		p.Status, c.settles.status, p.GrantID = domain.PaymentPaid, intentSucceeded, "purchase:"+pi.ID
		c.apply = func(a *domain.Account, at time.Time) error {
			err := a.GrantCredits(domain.CreditsGranted{
				GrantID: p.GrantID, Amount: credits, Source: domain.SourcePurchase, Reference: pi.ID,
			}, at)
			if err != nil {
				return err
			}
			return a.RecordPayment(p, at)
		}
		return c, nil
	}
	p.Status, c.settles.status = domain.PaymentFailed, intentFailed
	c.apply = func(a *domain.Account, at time.Time) error { return a.RecordPayment(p, at) }
	return c, nil
}

// planDescription is the transactions list's text of a paid cycle.
func planDescription(plan catalog.Plan, start, end time.Time) string {
	const layout = "Jan 02, 2006"
	return fmt.Sprintf("%s — %s to %s", plan.Name, start.Format(layout), end.Format(layout))
}
