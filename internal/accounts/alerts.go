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

// Balance alerts (issue 33): every command's decision ends with
// domain.Account.ReviewAlerts, which records LowBalanceAlerted,
// BalanceRecovered or ExpiryReminderSent when the command's outcome calls
// for one; the decider then writes each such event's mail to the outbox in
// the command's own transaction. SpendLimitReached, recorded by its own
// command after a refused spend, is mailed the same way. The alert and its mail commit together or
// not at all, so the mail goes once however many API processes spend at
// once (the stream's lock orders their decisions, and only the one that
// crosses records the alert), and a projector rebuild, which only reads the
// log, sends nothing. In a group commit the mail is the decider's last
// step, after any refusal could happen, so it never forces the batch to run
// again alone.

// AlertMail composes the mail an alert event sends, or ok false for an
// event that sends none. to is the account's address.
type AlertMail func(to string, ev domain.Event) (m mail.Message, ok bool)

// UseAlerts makes the repository mail the alerts its commands record,
// composed by compose.
func (r *Repository) UseAlerts(compose AlertMail) { r.alerts = compose }

// queueAlertMail writes, through tx, the mail of each alert event among a's
// changes.
func (r *Repository) queueAlertMail(ctx context.Context, tx pgx.Tx, a *domain.Account, now time.Time) error {
	if r.alerts == nil {
		return nil
	}
	for _, ev := range a.Changes() {
		m, ok := r.alerts(a.Email(), ev)
		if !ok {
			continue
		}
		if err := mail.Enqueue(ctx, tx, mail.KindAlert, m, now); err != nil {
			return err
		}
	}
	return nil
}

// AlertMails composes the alerts' mails in the style of the billing mails;
// product is PRODUCT_NAME, baseURL APP_BASE_URL.
func AlertMails(product, baseURL string) AlertMail {
	sign := "\n\nThank you,\nThe " + product + " team\n"
	settings := "\n\nChange or turn off this alert on your dashboard: " + baseURL + "/dashboard"
	return func(to string, ev domain.Event) (mail.Message, bool) {
		var m mail.Message
		switch e := ev.(type) {
		case domain.LowBalanceAlerted:
			m = mail.Message{
				Subject: fmt.Sprintf("Your %s credits are running low: %s left", product, credits(e.Available)),
				Text: fmt.Sprintf("Your available credits fell below your alert threshold of %s: %s left.\n\n"+
					"When they run out, the desktop software's requests are refused until you add credits. "+
					"Buy credits on your dashboard: %s/dashboard", credits(e.Threshold), credits(e.Available), baseURL) + settings + sign,
			}
		case domain.BalanceRecovered:
			m = mail.Message{
				Subject: fmt.Sprintf("Your %s credits have recovered: %s available", product, credits(e.Available)),
				Text: fmt.Sprintf("Your available credits are back at or above your alert threshold of %s: %s available.\n\n"+
					"We will tell you again if they fall below it.", credits(e.Threshold), credits(e.Available)) + settings + sign,
			}
		case domain.ExpiryReminderSent:
			day := e.ExpiresAt.UTC().Format("January 2, 2006")
			m = mail.Message{
				Subject: fmt.Sprintf("%s of your %s monthly credits expire on %s", credits(e.Credits), product, day),
				Text: fmt.Sprintf("%s of this billing cycle's monthly credits are unspent. They expire at the end of the cycle, "+
					"on %s at %s UTC, and unused credits are not refunded or carried over.\n\n"+
					"Purchased credits never expire.", credits(e.Credits), day, e.ExpiresAt.UTC().Format("15:04")) + settings + sign,
			}
		case domain.SpendLimitReached: // once per limit and period (the spend limit is the seller's setting)
			resets := e.ResetsAt.UTC()
			m = mail.Message{
				Subject: fmt.Sprintf("Your %s %s spend limit of %s is reached", product, e.Period, credits(e.Limit)),
				Text: fmt.Sprintf("Your %s spend limit of %s is reached (%s spent). Until it resets on %s at %s UTC, "+
					"the desktop software's requests that cost credits are refused; nothing is charged for them.\n\n"+
					"Raise or remove the limit on your dashboard: %s/dashboard", e.Period, credits(e.Limit), credits(e.Spent),
					resets.Format("January 2, 2006"), resets.Format("15:04"), baseURL) + sign,
			}
		default:
			return mail.Message{}, false
		}
		m.To = to
		return m, true
	}
}

// credits is n with its unit, "1 credit" or "150 credits".
func credits(n int64) string { return catalog.CreditsDescription(n) }
