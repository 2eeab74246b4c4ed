package command

// What the provider's notifications that pay for, change or end a
// subscription, and those that pay for credits, mean for the account: each
// read into the change notifications.apply makes (provider_event.go).

import (
	"context"
	"fmt"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/catalog"
	"github.com/a2e-automation/app/internal/payments"
)

// onInvoice handles a paid invoice (a paid cycle: activate or renew, grant
// the cycle's credits, a paid transaction) and a failed one (a failed
// transaction; past due unless that period is paid already).
func (n notifications) onInvoice(ctx context.Context, ev payments.Notification) (change, error) {
	inv := ev.Invoice
	if inv.SubscriptionID == "" {
		return ignore("not a subscription invoice"), nil
	}
	subscriptionID := inv.SubscriptionID
	start, end := inv.PeriodStart, inv.PeriodEnd
	if !inv.HasPeriod {
		return change{}, domain.Errorf(domain.CodeInvalid, "invoice %s has no subscription period", inv.ID)
	}
	accountID, err := n.payments.AccountOf(ctx, inv.Owner)
	if err != nil || accountID == "" {
		return ignore("unknown customer"), err
	}
	plan := catalog.MonthlyPlan()
	p := domain.PaymentRecorded{
		PaymentID: inv.ID, Kind: payments.KindSubscription, Description: planDescription(plan, start, end),
		InvoiceURL: inv.HostedURL, Credits: plan.Credits,
	}
	c := change{accountID: accountID, settles: &payments.Settlement{ByInvoice: true, ID: inv.ID}}
	if ev.Kind == payments.InvoicePaid {
		p.Status, p.AmountCents, c.settles.Paid = domain.PaymentPaid, inv.AmountPaid, true
		p.GrantID = domain.MonthlyGrantID(subscriptionID, start)
		voided, err := n.payments.CheckoutVoided(ctx, inv.ID)
		if err != nil {
			return change{}, err
		}
		c.apply = func(a *domain.Account, at time.Time) error {
			if cur := a.SubscriptionID(); voided || (cur != "" && cur != subscriptionID && running(a, at)) {
				// One subscription per seller: a second one's payment grants
				// nothing; staff refund it (docs/payments.md).
				n.log.ErrorContext(ctx, "paid invoice of a subscription that is not the seller's current one; flagged for staff, nothing granted",
					"event", ev.ID, "invoice", inv.ID, "subscription", subscriptionID, "current", cur, "voided", voided, "account", accountID)
				flagged := p
				flagged.Status, flagged.GrantID = domain.PaymentNeedsReview, ""
				return a.RecordPayment(flagged, at)
			}
			// Staleness, as a subscription update's: a cancellation
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
	p.Status, p.AmountCents = domain.PaymentFailed, inv.AmountDue
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

// onSubscription handles a subscription's update and deletion. They only
// move the status: past due, cancelled at period end, or ended.
// Activation, renewal and the period end belong to the paid invoice alone,
// so an update that arrives before its invoice's payment cannot cost the
// cycle's grant, and a late one cannot move the period back.
func (n notifications) onSubscription(ctx context.Context, ev payments.Notification) (change, error) {
	sub := ev.Subscription
	accountID, err := n.payments.AccountOf(ctx, sub.Owner)
	if err != nil || accountID == "" {
		return ignore("unknown customer"), err
	}
	c := change{accountID: accountID}
	switch {
	case sub.Status == payments.SubscriptionIncompleteExpired:
		// Its first invoice was never paid: it never ran, and no paid
		// cycle of it can come.
		c.ignored = "status incomplete_expired: it never started"
	case ev.Kind == payments.SubscriptionDeleted || sub.Status == payments.SubscriptionCanceled:
		if c.staff, err = n.payments.StaffCancellation(ctx, accountID, sub.ID, true); err != nil {
			return change{}, err
		}
		c.apply = func(a *domain.Account, at time.Time) error { return a.EndSubscription(sub.ID, at) }
	case sub.Cancelling:
		if c.staff, err = n.payments.StaffCancellation(ctx, accountID, sub.ID, false); err != nil {
			return change{}, err
		}
		c.retryUnknown = true
		c.apply = func(a *domain.Account, at time.Time) error {
			if a.SubscriptionID() != sub.ID && !running(a, at) {
				// A cancellation that overtook the subscription's first
				// paid invoice: Stripe redelivers it once that is in.
				return domain.Errorf(domain.CodeNotFound, "subscription %s is not recorded as started yet", sub.ID)
			}
			if a.SubscriptionID() != sub.ID || a.SubscriptionStatusAt(at) != domain.StatusActive || staleFor(a, ev) {
				return nil // another subscription, or not active (already cancelling, past due or ended)
			}
			return a.CancelSubscription(at)
		}
	case sub.Status == payments.SubscriptionActive:
		// Not cancelling any more: a cancellation undone in the portal.
		// Otherwise activation and renewal wait for the paid invoice.
		c.unchanged = "status active: nothing to record until its invoice is paid"
		c.apply = func(a *domain.Account, at time.Time) error {
			if a.SubscriptionID() != sub.ID || a.SubscriptionStatusAt(at) != domain.StatusCancelling || staleFor(a, ev) {
				return nil
			}
			return a.ResumeSubscription(at)
		}
	case sub.Status == payments.SubscriptionPastDue || sub.Status == payments.SubscriptionUnpaid:
		c.apply = func(a *domain.Account, at time.Time) error {
			if paid := a.PeriodEnd(); paid != nil && !sub.PeriodEnd.After(*paid) {
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
func staleFor(a *domain.Account, ev payments.Notification) bool {
	changed := a.SubscriptionChangedAt()
	return changed != nil && ev.Created.Before(changed.Truncate(time.Second))
}

// onPayment handles a credit pack's payment, succeeded (grant the purchased
// credits, a paid transaction) or failed (a failed transaction); the
// payments of subscription invoices are the invoice notifications'
// business. The amount and currency must be the catalogue's price of the
// credits it names.
func (n notifications) onPayment(ctx context.Context, ev payments.Notification) (change, error) {
	pi := ev.Payment
	if pi.Owner.Kind != payments.KindCredits {
		return ignore("not a credit purchase"), nil
	}
	credits := pi.Credits
	if !catalog.Charges(credits, pi.AmountCents, pi.Currency) {
		n.log.ErrorContext(ctx, "payment intent does not match the catalogue; nothing granted",
			"event", ev.ID, "paymentIntent", pi.ID, "credits", credits, "amount", pi.AmountCents, "currency", pi.Currency)
		return ignore("amount does not match the catalogue"), nil
	}
	accountID, err := n.payments.AccountOf(ctx, pi.Owner)
	if err != nil || accountID == "" {
		return ignore("unknown customer"), err
	}
	p := domain.PaymentRecorded{
		PaymentID: pi.ID, Kind: payments.KindCredits, Description: catalog.CreditsDescription(credits), AmountCents: pi.AmountCents, Credits: credits,
		Recharge: pi.Recharge, // an auto-recharge's (run_recharges.go)
	}
	if p.Recharge != "" {
		p.Description = accounts.RechargeDescription(credits)
	}
	c := change{accountID: accountID, settles: &payments.Settlement{ID: pi.ID}}
	if ev.Kind == payments.PaymentSucceeded {
		p.Status, c.settles.Paid, p.GrantID = domain.PaymentPaid, true, "purchase:"+pi.ID
		c.apply = func(a *domain.Account, at time.Time) error {
			err := a.GrantCredits(domain.CreditsGranted{
				GrantID: p.GrantID, Amount: credits, Source: domain.SourcePurchase, Reference: pi.ID,
			}, at)
			if err != nil {
				return err
			}
			return a.RecordPayment(withCard(a, p, at), at)
		}
		return c, nil
	}
	p.Status = domain.PaymentFailed
	c.apply = func(a *domain.Account, at time.Time) error { return a.RecordPayment(p, at) }
	return c, nil
}

// withCard is p naming the card it was charged to when the ledger knows
// it: an auto-recharge charges the saved card (its receipt shows it). A
// pack bought in the browser is paid on the provider's page, whose card
// the ledger never sees.
func withCard(a *domain.Account, p domain.PaymentRecorded, at time.Time) domain.PaymentRecorded {
	if p.Recharge != "" {
		p.Card = a.AutoRecharge(at).Card
	}
	return p
}

// planDescription is the transactions list's text of a paid cycle.
func planDescription(plan catalog.Plan, start, end time.Time) string {
	const layout = "Jan 02, 2006"
	return fmt.Sprintf("%s — %s to %s", plan.Name, start.Format(layout), end.Format(layout))
}
