package command

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/payments"
)

// Outcome is what applying a provider's notification did.
type Outcome struct {
	AccountID string
	Result    eventstore.Result // Result.Replayed: the event id was applied before
	Ignored   string            // why the event changes nothing; "" when applied
	// Unchanged: the event's command ran and recorded nothing, the ledger
	// knew it already (a race lost to an equal event, say). False for a
	// redelivery answered from its first result.
	Unchanged bool
}

// idempotencyPrefix namespaces the provider's event ids among an account
// stream's idempotency keys.
const idempotencyPrefix = "stripe:"

// notifications applies what the provider reports to the ledger: the one
// path of every outcome, a webhook's (ApplyStripeEvent) and the simulated
// provider's, which reports at once (docs/payments.md, "One path for every
// outcome"). The rules of what each notification means live here and in
// the files beside (provider_event_*.go); the provider's storage answers
// the look-ups and records its rows in the account's transaction.
type notifications struct {
	accounts *accounts.Repository
	payments Notifications
	log      *slog.Logger
}

// change is what one notification does to one account.
type change struct {
	accountID string
	ignored   string // why nothing is done; apply is nil then
	apply     func(a *domain.Account, at time.Time) error
	settles   *payments.Settlement // the checkout the event settles, if any
	// unchanged is why the event is ignored should apply record nothing.
	unchanged string
	// retryUnknown: a payment the ledger does not know yet is worth a
	// redelivery (a refund or dispute that overtook its payment's event).
	retryUnknown bool
	// staff: the console requests (refunds, cancellations) the event
	// applies, whose staff member and reason go into its metadata.
	staff *payments.Attribution
	// savesCard: the card a SetupIntent saved, stored with the account's
	// PaymentMethodSaved.
	savesCard *payments.SavedCard
}

// ignore is a change that records nothing, for reason.
func ignore(reason string) change { return change{ignored: reason} }

// reader reads one kind of notification into a change.
type reader func(n notifications, ctx context.Context, ev payments.Notification) (change, error)

var readers = map[payments.NotificationKind]reader{
	payments.InvoicePaid:         notifications.onInvoice,
	payments.InvoiceFailed:       notifications.onInvoice,
	payments.SubscriptionUpdated: notifications.onSubscription,
	payments.SubscriptionDeleted: notifications.onSubscription,
	payments.PaymentSucceeded:    notifications.onPayment,
	payments.PaymentFailed:       notifications.onPayment,
	payments.ChargeRefunded:      notifications.onChargeRefunded,
	payments.RefundCreated:       notifications.onRefundCreated,
	payments.DisputeCreated:      notifications.onDispute,
	payments.DisputeClosed:       notifications.onDispute,
	payments.SetupSucceeded:      notifications.onSetup,
}

// apply records what ev means for its account, once per event id: a
// redelivery returns the first result and appends nothing. Events of other
// kinds, of unknown customers, and those that change nothing the ledger
// keeps are acknowledged and ignored.
//
// The account's commands run at the later of now and the event's creation:
// a webhook happens now, and the simulated provider's renewal, created at
// the end of the current cycle, moves the account to that moment.
func (n notifications) apply(ctx context.Context, ev payments.Notification, md eventstore.Metadata) (Outcome, error) {
	read, ok := readers[ev.Kind]
	if !ok {
		return Outcome{Ignored: fmt.Sprintf("event type %s is not handled", ev.Type)}, nil
	}
	c, err := read(n, ctx, ev)
	if err != nil {
		return Outcome{}, fmt.Errorf("%s %s: %w", ev.Type, ev.ID, err)
	}
	out := Outcome{AccountID: c.accountID, Ignored: c.ignored}
	if c.ignored != "" {
		return out, nil
	}
	md.CausationID = ev.ID
	if c.staff != nil {
		md.Actor, md.Reason = c.staff.Actor, c.staff.Reason
	}
	var recorded bool
	out.Result, err = n.payments.Record(ctx, payments.AccountChange{
		AccountID: c.accountID, At: ev.Created, Settles: c.settles, Staff: c.staff, EventID: ev.ID, SavesCard: c.savesCard,
		Options: eventstore.UpdateOptions{Metadata: md, IdempotencyKey: idempotencyPrefix + ev.ID, RequestHash: ev.Hash},
		Decide: func(a *domain.Account, at time.Time) error {
			if err := a.ExpireDue(at); err != nil {
				return err
			}
			before := len(a.Changes())
			if err := c.apply(a, at); err != nil {
				return err
			}
			recorded = len(a.Changes()) > before
			return nil
		},
	})
	if accounts.IsNotFound(err) {
		return Outcome{AccountID: c.accountID, Ignored: "no such account"}, nil
	}
	if domain.ErrorCode(err) == domain.CodeNotFound && c.retryUnknown {
		// The payment's own event has not been applied yet: Stripe retries.
		n.log.WarnContext(ctx, "stripe event about a payment not recorded yet; answered for a retry", "event", ev.ID, "type", ev.Type, "err", err)
		return Outcome{}, fmt.Errorf("%s %s: %w: %w", ev.Type, ev.ID, payments.ErrNotSettledYet, err)
	}
	if domain.ErrorCode(err) == domain.CodeNotFound {
		// A refund or dispute of a payment the ledger never recorded as paid.
		n.log.WarnContext(ctx, "stripe event about an unknown payment; nothing recorded", "event", ev.ID, "type", ev.Type, "err", err)
		return Outcome{AccountID: c.accountID, Ignored: domain.ErrorMessage(err)}, nil
	}
	if err != nil {
		return Outcome{}, fmt.Errorf("%s %s: %w", ev.Type, ev.ID, err)
	}
	out.Unchanged = !out.Result.Replayed && !recorded
	if c.unchanged != "" && !out.Result.Replayed && out.Result.LastPosition == 0 {
		out.Ignored = c.unchanged
	}
	return out, nil
}
