package webhooks

import (
	"encoding/json"
	"maps"
	"slices"
	"time"

	"github.com/a2e-automation/app/domain"
)

// Body is a delivery's JSON body: the webhook event. ID is "evt_" and the
// ledger event's id, so a receiver can drop a repeat (delivery is at least
// once).
type Body struct {
	ID        string `json:"id"`
	Type      string `json:"type"`
	CreatedAt string `json:"createdAt"` // RFC 3339, UTC: when the ledger recorded the event
	Data      any    `json:"data"`
}

// Of returns the webhook event type and data of a ledger event, or ok
// false for an event no webhook carries (spends among them: the read-back
// serves those). Every data holds the account's id.
func Of(accountID string, ev domain.Event) (typ string, data map[string]any, ok bool) {
	c, found := carriers[ev.EventType()]
	if !found {
		return "", nil, false
	}
	d := map[string]any{"accountId": accountID}
	if typ = c(d, ev); typ == "" {
		return "", nil, false
	}
	return typ, d, true
}

// A carrier fills a webhook's data from one type of ledger event and
// returns the webhook's type, or "" when this event of it is not sent.
type carrier func(d map[string]any, ev domain.Event) string

// carriers is the one list of what becomes a webhook: Of reads it, and the
// dispatcher's read (dispatchedTypes) is made from its keys.
var carriers = map[string]carrier{}

// carry adds the carrier of ledger events of type E.
func carry[E domain.Event](f func(d map[string]any, e E) string) {
	var zero E
	carriers[zero.EventType()] = func(d map[string]any, ev domain.Event) string { return f(d, ev.(E)) }
}

func init() {
	carry(func(d map[string]any, e domain.CreditsGranted) string {
		d["grantId"], d["amount"], d["source"] = e.GrantID, e.Amount, e.Source
		d["expiresAt"] = timeOrNil(e.ExpiresAt)
		return domain.WebhookCreditsGranted
	})
	carry(func(d map[string]any, e domain.ExpiryReminderSent) string {
		d["grantId"], d["credits"], d["expiresAt"] = e.GrantID, e.Credits, e.ExpiresAt.UTC().Format(time.RFC3339)
		return domain.WebhookCreditsExpiring
	})
	carry(func(d map[string]any, e domain.CreditsExpired) string {
		d["grantId"], d["amount"] = e.GrantID, e.Amount
		return domain.WebhookCreditsExpired
	})
	carry(func(d map[string]any, e domain.LowBalanceAlerted) string {
		d["threshold"], d["available"] = e.Threshold, e.Available
		return domain.WebhookBalanceLow
	})
	carry(func(d map[string]any, e domain.BalanceRecovered) string {
		d["threshold"], d["available"] = e.Threshold, e.Available
		return domain.WebhookBalanceRecovered
	})
	carry(func(d map[string]any, e domain.SpendLimitReached) string {
		d["period"], d["limit"], d["spent"], d["resetsAt"] = e.Period, e.Limit, e.Spent, e.ResetsAt.UTC().Format(time.RFC3339)
		return domain.WebhookSpendLimitReached
	})
	carry(func(d map[string]any, e domain.PaymentRecorded) string {
		if e.Status != domain.PaymentPaid {
			return ""
		}
		d["paymentId"], d["kind"], d["description"], d["amountCents"] = e.PaymentID, e.Kind, e.Description, e.AmountCents
		d["credits"], d["invoiceUrl"] = e.Credits, e.InvoiceURL
		return domain.WebhookPaymentSucceeded
	})
	carry(func(d map[string]any, e domain.PaymentRefunded) string {
		d["paymentId"], d["refundedCents"], d["status"] = e.PaymentID, e.AmountCents, e.Status
		return domain.WebhookPaymentRefunded
	})
	carry(func(d map[string]any, e domain.SubscriptionActivated) string {
		d["subscriptionId"], d["status"], d["change"] = e.SubscriptionID, domain.StatusActive, "activated"
		d["periodStart"], d["periodEnd"] = e.PeriodStart.UTC().Format(time.RFC3339), e.PeriodEnd.UTC().Format(time.RFC3339)
		return domain.WebhookSubscriptionUpdated
	})
	carry(func(d map[string]any, e domain.SubscriptionRenewed) string {
		d["subscriptionId"], d["status"], d["change"] = e.SubscriptionID, domain.StatusActive, "renewed"
		d["periodStart"], d["periodEnd"] = e.PeriodStart.UTC().Format(time.RFC3339), e.PeriodEnd.UTC().Format(time.RFC3339)
		return domain.WebhookSubscriptionUpdated
	})
	carry(func(d map[string]any, e domain.SubscriptionPastDue) string {
		d["subscriptionId"], d["status"], d["change"] = e.SubscriptionID, domain.StatusPastDue, "past_due"
		return domain.WebhookSubscriptionUpdated
	})
	carry(func(d map[string]any, e domain.SubscriptionCancelled) string {
		d["subscriptionId"], d["status"], d["change"] = e.SubscriptionID, domain.StatusCancelling, "cancelled"
		d["endsAt"] = e.EndsAt.UTC().Format(time.RFC3339)
		return domain.WebhookSubscriptionUpdated
	})
	carry(func(d map[string]any, e domain.SubscriptionResumed) string {
		d["subscriptionId"], d["status"], d["change"] = e.SubscriptionID, domain.StatusActive, "resumed"
		d["periodEnd"] = e.PeriodEnd.UTC().Format(time.RFC3339)
		return domain.WebhookSubscriptionUpdated
	})
	carry(func(d map[string]any, e domain.SubscriptionEnded) string {
		d["subscriptionId"], d["status"], d["change"] = e.SubscriptionID, domain.StatusCancelled, "ended"
		return domain.WebhookSubscriptionUpdated
	})
	carry(func(d map[string]any, e domain.APIKeyIssued) string { // the key's prefix only: never its hash or its sealed value
		d["keyId"], d["prefix"] = e.KeyID, e.Prefix
		return domain.WebhookAPIKeyCreated
	})
	carry(func(d map[string]any, e domain.APIKeyRotated) string {
		d["keyId"], d["prefix"], d["previousKeyId"] = e.KeyID, e.Prefix, e.PreviousKeyID
		d["previousRetiresAt"] = timeOrNil(e.PreviousRetiresAt)
		return domain.WebhookAPIKeyCreated
	})
	carry(func(d map[string]any, e domain.APIKeyCreated) string {
		d["keyId"], d["prefix"], d["name"], d["mode"], d["expiresAt"] = e.KeyID, e.Prefix, e.Name, e.Mode, timeOrNil(e.ExpiresAt)
		return domain.WebhookAPIKeyCreated
	})
	carry(func(d map[string]any, e domain.APIKeyRevoked) string {
		d["keyId"], d["reason"] = e.KeyID, "revoked"
		return domain.WebhookAPIKeyRevoked
	})
	carry(func(d map[string]any, e domain.APIKeyExpired) string { // its expiry came, or its rotation's grace ended
		d["keyId"], d["reason"] = e.KeyID, e.Reason
		return domain.WebhookAPIKeyRevoked
	})
	dispatchedTypes = append(slices.Sorted(maps.Keys(carriers)), domain.WebhookEndpointAdded{}.EventType())
}

// dispatchedTypes are the stored types of the events the dispatcher reads:
// those a carrier may turn into a webhook, and WebhookEndpointAdded, which
// starts an endpoint's subscription. The log's other events (the spends,
// most of it) are skipped by the database, never sent or decoded (issue 36).
var dispatchedTypes []string

func timeOrNil(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UTC().Format(time.RFC3339)
}

// Encode returns the body of ledger event id of type typ recorded at.
func Encode(id string, typ string, at time.Time, data map[string]any) ([]byte, error) {
	return json.Marshal(Body{ID: "evt_" + id, Type: typ, CreatedAt: at.UTC().Format(time.RFC3339), Data: data})
}
