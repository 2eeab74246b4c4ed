package webhooks

import (
	"encoding/json"
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
	d := map[string]any{"accountId": accountID}
	switch e := ev.(type) {
	case domain.CreditsGranted:
		typ = domain.WebhookCreditsGranted
		d["grantId"], d["amount"], d["source"] = e.GrantID, e.Amount, e.Source
		d["expiresAt"] = timeOrNil(e.ExpiresAt)
	case domain.ExpiryReminderSent:
		typ = domain.WebhookCreditsExpiring
		d["grantId"], d["credits"], d["expiresAt"] = e.GrantID, e.Credits, e.ExpiresAt.UTC().Format(time.RFC3339)
	case domain.CreditsExpired:
		typ = domain.WebhookCreditsExpired
		d["grantId"], d["amount"] = e.GrantID, e.Amount
	case domain.LowBalanceAlerted:
		typ = domain.WebhookBalanceLow
		d["threshold"], d["available"] = e.Threshold, e.Available
	case domain.BalanceRecovered:
		typ = domain.WebhookBalanceRecovered
		d["threshold"], d["available"] = e.Threshold, e.Available
	case domain.SpendLimitReached:
		typ = domain.WebhookSpendLimitReached
		d["period"], d["limit"], d["spent"], d["resetsAt"] = e.Period, e.Limit, e.Spent, e.ResetsAt.UTC().Format(time.RFC3339)
	case domain.PaymentRecorded:
		if e.Status != domain.PaymentPaid {
			return "", nil, false
		}
		typ = domain.WebhookPaymentSucceeded
		d["paymentId"], d["kind"], d["description"], d["amountCents"] = e.PaymentID, e.Kind, e.Description, e.AmountCents
		d["credits"], d["invoiceUrl"] = e.Credits, e.InvoiceURL
	case domain.PaymentRefunded:
		typ = domain.WebhookPaymentRefunded
		d["paymentId"], d["refundedCents"], d["status"] = e.PaymentID, e.AmountCents, e.Status
	case domain.SubscriptionActivated:
		typ = domain.WebhookSubscriptionUpdated
		d["subscriptionId"], d["status"], d["change"] = e.SubscriptionID, domain.StatusActive, "activated"
		d["periodStart"], d["periodEnd"] = e.PeriodStart.UTC().Format(time.RFC3339), e.PeriodEnd.UTC().Format(time.RFC3339)
	case domain.SubscriptionRenewed:
		typ = domain.WebhookSubscriptionUpdated
		d["subscriptionId"], d["status"], d["change"] = e.SubscriptionID, domain.StatusActive, "renewed"
		d["periodStart"], d["periodEnd"] = e.PeriodStart.UTC().Format(time.RFC3339), e.PeriodEnd.UTC().Format(time.RFC3339)
	case domain.SubscriptionPastDue:
		typ = domain.WebhookSubscriptionUpdated
		d["subscriptionId"], d["status"], d["change"] = e.SubscriptionID, domain.StatusPastDue, "past_due"
	case domain.SubscriptionCancelled:
		typ = domain.WebhookSubscriptionUpdated
		d["subscriptionId"], d["status"], d["change"] = e.SubscriptionID, domain.StatusCancelling, "cancelled"
		d["endsAt"] = e.EndsAt.UTC().Format(time.RFC3339)
	case domain.SubscriptionResumed:
		typ = domain.WebhookSubscriptionUpdated
		d["subscriptionId"], d["status"], d["change"] = e.SubscriptionID, domain.StatusActive, "resumed"
		d["periodEnd"] = e.PeriodEnd.UTC().Format(time.RFC3339)
	case domain.SubscriptionEnded:
		typ = domain.WebhookSubscriptionUpdated
		d["subscriptionId"], d["status"], d["change"] = e.SubscriptionID, domain.StatusCancelled, "ended"
	case domain.APIKeyIssued: // the key's prefix only: never its hash or its sealed value
		typ = domain.WebhookAPIKeyCreated
		d["keyId"], d["prefix"] = e.KeyID, e.Prefix
	case domain.APIKeyRotated:
		typ = domain.WebhookAPIKeyCreated
		d["keyId"], d["prefix"], d["previousKeyId"] = e.KeyID, e.Prefix, e.PreviousKeyID
		d["previousRetiresAt"] = timeOrNil(e.PreviousRetiresAt)
	case domain.APIKeyCreated:
		typ = domain.WebhookAPIKeyCreated
		d["keyId"], d["prefix"], d["name"], d["mode"], d["expiresAt"] = e.KeyID, e.Prefix, e.Name, e.Mode, timeOrNil(e.ExpiresAt)
	case domain.APIKeyRevoked:
		typ = domain.WebhookAPIKeyRevoked
		d["keyId"], d["reason"] = e.KeyID, "revoked"
	case domain.APIKeyExpired: // its expiry came, or its rotation's grace ended
		typ = domain.WebhookAPIKeyRevoked
		d["keyId"], d["reason"] = e.KeyID, e.Reason
	default:
		return "", nil, false
	}
	return typ, d, true
}

// dispatchedTypes are the stored types of the events the dispatcher reads:
// those Of may turn into a webhook, and WebhookEndpointAdded, which starts
// an endpoint's subscription. The log's other events (the spends, most of
// it) are skipped by the database, never sent or decoded (issue 36).
// TestDispatchedTypesCoverOf keeps it beside Of's cases.
var dispatchedTypes = []string{
	domain.WebhookEndpointAdded{}.EventType(),
	domain.CreditsGranted{}.EventType(),
	domain.ExpiryReminderSent{}.EventType(),
	domain.CreditsExpired{}.EventType(),
	domain.LowBalanceAlerted{}.EventType(),
	domain.BalanceRecovered{}.EventType(),
	domain.PaymentRecorded{}.EventType(),
	domain.PaymentRefunded{}.EventType(),
	domain.SubscriptionActivated{}.EventType(),
	domain.SubscriptionRenewed{}.EventType(),
	domain.SubscriptionPastDue{}.EventType(),
	domain.SubscriptionCancelled{}.EventType(),
	domain.SubscriptionResumed{}.EventType(),
	domain.SubscriptionEnded{}.EventType(),
	domain.APIKeyIssued{}.EventType(),
	domain.APIKeyRotated{}.EventType(),
	domain.APIKeyCreated{}.EventType(),
	domain.APIKeyRevoked{}.EventType(),
	domain.APIKeyExpired{}.EventType(),
	domain.SpendLimitReached{}.EventType(),
}

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
