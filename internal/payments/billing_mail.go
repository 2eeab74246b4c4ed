package payments

import (
	"context"
	"fmt"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/catalog"
	"github.com/a2e-automation/app/internal/mail"
)

// queueBillingMail queues, in the transaction that records them, the mails
// the seller gets for the account's new events: a receipt for every payment
// (first payment, renewal, credit pack) and refund, a notice when a
// renewal payment fails, and one when a subscription is set to end. The
// outbox delivers them after commit, once (mail.Enqueue).
func (s *Service) queueBillingMail(ctx context.Context, w accounts.Work, a *domain.Account, now time.Time) error {
	for _, ev := range a.Changes() {
		m, ok := s.billingMail(ev)
		if !ok {
			continue
		}
		m.To = a.Email()
		if err := w.Mail(ctx, mail.KindBilling, m, now); err != nil {
			return err
		}
	}
	return nil
}

// billingMail is the mail event ev deserves, if any.
func (s *Service) billingMail(ev domain.Event) (mail.Message, bool) {
	product, link := s.productName, s.baseURL
	money := catalog.Dollars
	sign := "\n\nThank you,\nThe " + product + " team\n"
	switch e := ev.(type) {
	case domain.PaymentRecorded:
		switch {
		case e.Status == domain.PaymentPaid:
			return mail.Message{
				Subject: fmt.Sprintf("Your %s receipt: %s", product, e.Description),
				Text: fmt.Sprintf("We received your payment of %s for %s (payment %s).\n\n"+
					"Your transactions and invoices: %s/transactions", money(e.AmountCents), e.Description, e.PaymentID, link) + sign,
			}, true
		case e.Status == domain.PaymentFailed && e.Kind == domain.PaymentKindSubscription:
			return mail.Message{
				Subject: "Your " + product + " subscription payment failed",
				Text: fmt.Sprintf("We could not collect %s for %s.\n\n"+
					"Update your payment method to keep your subscription and its monthly credits: %s/subscription\n"+
					"We will try the payment again; until it succeeds your subscription is past due.",
					money(e.AmountCents), e.Description, link) + sign,
			}, true
		}
	case domain.PaymentRefunded:
		what := "in full"
		if e.Status == domain.PaymentPartiallyRefunded {
			what = "in part"
		}
		return mail.Message{
			Subject: "Your " + product + " refund",
			Text: fmt.Sprintf("Payment %s was refunded %s: %s in total. The refunded share of the credits it bought "+
				"was removed from your balance.\n\nYour transactions: %s/transactions", e.PaymentID, what, money(e.AmountCents), link) + sign,
		}, true
	case domain.SubscriptionCancelled:
		return mail.Message{
			Subject: "Your " + product + " subscription ends on " + e.EndsAt.UTC().Format("January 2, 2006"),
			Text: fmt.Sprintf("Your subscription was cancelled. It stays active, with the software and this cycle's credits, "+
				"until %s, and is not renewed.\n\nChanged your mind? Resume it before then: %s/subscription",
				e.EndsAt.UTC().Format("January 2, 2006"), link) + sign,
		}, true
	}
	return mail.Message{}, false
}
