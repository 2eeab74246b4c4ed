package accounts

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/catalog"
	"github.com/a2e-automation/app/internal/mail"
)

// Auto-recharge (issue 33 item 2): every command's decision ends with
// domain.Account.ReviewAutoRecharge, which records RechargeRequested (the
// in-flight marker) when a spend left credits below the threshold. The
// decider then writes the request to the recharge outbox,
// recharge_requests, in the command's own transaction, where the recharge
// worker (command.RunRechargesHandler) finds it and asks the provider with
// no transaction open. As with the alerts' mails, the row is the decider's
// last write, after any refusal could happen, so in a group commit it never
// forces the batch to run again alone. The mails auto-recharge sends (turned
// off after failures, a payment needing authentication) are queued the same
// way.

// RechargeMail composes the mail an auto-recharge event sends, or ok false
// for an event that sends none. to is the account's address.
type RechargeMail func(to string, ev domain.Event) (m mail.Message, ok bool)

// UseRechargeMail makes the repository mail the auto-recharge events its
// commands record, composed by compose.
func (r *Repository) UseRechargeMail(compose RechargeMail) { r.rechargeMail = compose }

// queueRecharges writes, through tx, a recharge_requests row for each
// RechargeRequested among a's changes, and the mail of each auto-recharge
// event that sends one.
func (r *Repository) queueRecharges(ctx context.Context, tx pgx.Tx, a *domain.Account, now time.Time) error {
	for _, ev := range a.Changes() {
		if e, ok := ev.(domain.RechargeRequested); ok {
			if _, err := tx.Exec(ctx, `INSERT INTO recharge_requests (account_id, recharge_id, credits, amount_cents, created_at)
				VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`, a.ID(), e.RechargeID, e.Credits, e.AmountCents, now); err != nil {
				return fmt.Errorf("queue recharge %s: %w", e.RechargeID, err)
			}
		}
		if r.rechargeMail == nil {
			continue
		}
		if m, ok := r.rechargeMail(a.Email(), ev); ok {
			if err := mail.Enqueue(ctx, tx, mail.KindBilling, m, now); err != nil {
				return err
			}
		}
	}
	return nil
}

// RechargeMails composes auto-recharge's mails in the style of the billing
// mails; product is PRODUCT_NAME, baseURL APP_BASE_URL.
func RechargeMails(product, baseURL string) RechargeMail {
	sign := "\n\nThank you,\nThe " + product + " team\n"
	return func(to string, ev domain.Event) (mail.Message, bool) {
		var m mail.Message
		switch e := ev.(type) {
		case domain.AutoRechargeDisabled:
			why := fmt.Sprintf("the last %d charges to your saved card failed", domain.MaxRechargeFailures)
			if e.Reason == domain.RechargeDisabledPaymentMethod {
				why = "the saved card was removed"
			}
			m = mail.Message{
				Subject: fmt.Sprintf("Auto-recharge of your %s credits is turned off", product),
				Text: fmt.Sprintf("We turned auto-recharge off because %s. No further charges will be attempted.\n\n"+
					"Check or replace your card and turn auto-recharge on again on your dashboard: %s/dashboard#auto-recharge",
					why, baseURL) + sign,
			}
		case domain.RechargeNeedsAction:
			m = mail.Message{
				Subject: fmt.Sprintf("Confirm your %s auto-recharge payment", product),
				Text: fmt.Sprintf("Your bank asks you to confirm the automatic payment of your credits (3-D Secure). "+
					"No credits were added yet, and no other recharge is attempted until you confirm it.\n\n"+
					"Confirm the payment here: %s/dashboard#auto-recharge", baseURL) + sign,
			}
		case domain.RechargeFailed:
			m = mail.Message{
				Subject: fmt.Sprintf("Your %s auto-recharge payment failed", product),
				Text: fmt.Sprintf("The automatic payment for your credits failed: %s\n\n"+
					"After %d failed charges in a row auto-recharge turns itself off (this was %d). "+
					"Check or replace your card on your dashboard: %s/dashboard#auto-recharge",
					e.Reason, domain.MaxRechargeFailures, e.Failures, baseURL) + sign,
			}
		default:
			return mail.Message{}, false
		}
		m.To = to
		return m, true
	}
}

// RechargeDescription is how the transactions list names a recharge's
// payment: "Auto-recharge: 500 credits".
func RechargeDescription(credits int64) string {
	return "Auto-recharge: " + catalog.CreditsDescription(credits)
}
