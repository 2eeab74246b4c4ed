package domain

import (
	"slices"
	"time"
)

// Webhook endpoints (issue 35): the seller's endpoints are settings in the
// account's stream, like the alerts. Their signing secrets are not: they
// live in an operational table (internal/webhooks), and the events record
// only that an endpoint was added, had its secret rolled, was removed or was
// disabled.

// MaxWebhookEndpoints is how many endpoints an account may have at once.
const MaxWebhookEndpoints = 5

// The webhook event types a seller can subscribe to: those the ledger
// records an event for today (internal/webhooks maps each ledger event to
// one of them).
const (
	WebhookCreditsGranted      = "credits.granted"
	WebhookCreditsExpiring     = "credits.expiring"
	WebhookCreditsExpired      = "credits.expired"
	WebhookBalanceLow          = "balance.low"
	WebhookBalanceRecovered    = "balance.recovered"
	WebhookPaymentSucceeded    = "payment.succeeded"
	WebhookPaymentRefunded     = "payment.refunded"
	WebhookSubscriptionUpdated = "subscription.updated"
	WebhookAPIKeyCreated       = "api_key.created"
	WebhookAPIKeyRevoked       = "api_key.revoked"
	WebhookSpendLimitReached   = "spend_limit.reached"
)

// WebhookEventTypes lists the webhook event types, in the guide's order.
func WebhookEventTypes() []string {
	return []string{WebhookCreditsGranted, WebhookCreditsExpiring, WebhookCreditsExpired, WebhookBalanceLow,
		WebhookBalanceRecovered, WebhookPaymentSucceeded, WebhookPaymentRefunded, WebhookSubscriptionUpdated, WebhookAPIKeyCreated,
		WebhookAPIKeyRevoked, WebhookSpendLimitReached}
}

// CheckWebhookEvents returns what is wrong with an endpoint's event list,
// or "": at least one, each a known type, none twice.
func CheckWebhookEvents(events []string) string {
	if len(events) == 0 {
		return "events must name at least one event type"
	}
	known := WebhookEventTypes()
	for i, e := range events {
		if !slices.Contains(known, e) {
			return "events has an unknown event type: " + e
		}
		if slices.Contains(events[:i], e) {
			return "events names " + e + " twice"
		}
	}
	return ""
}

// ErrTooManyWebhookEndpoints refuses a sixth endpoint.
var ErrTooManyWebhookEndpoints = Errorf(CodeInvalid, "An account can have at most %d webhook endpoints", MaxWebhookEndpoints)

// ErrWebhookEndpointNotFound is an endpoint id the account does not have.
var ErrWebhookEndpointNotFound = Errorf(CodeNotFound, "Webhook endpoint not found")

// WebhookEndpointAdded records a new endpoint: the events it receives from
// here on. Its secret is not here.
type WebhookEndpointAdded struct {
	EndpointID string   `json:"endpointId"`
	URL        string   `json:"url"`
	Events     []string `json:"events"`
}

// WebhookSecretRolled records a new signing secret for an endpoint; the old
// one stays valid for a day.
type WebhookSecretRolled struct {
	EndpointID string `json:"endpointId"`
}

// WebhookEndpointRemoved records that the seller removed an endpoint.
type WebhookEndpointRemoved struct {
	EndpointID string `json:"endpointId"`
}

// WebhookEndpointDisabled records that an endpoint failed for too long and
// receives nothing more; the seller is mailed.
type WebhookEndpointDisabled struct {
	EndpointID string `json:"endpointId"`
	Reason     string `json:"reason"`
}

func (WebhookEndpointAdded) EventType() string    { return "WebhookEndpointAdded" }
func (WebhookSecretRolled) EventType() string     { return "WebhookSecretRolled" }
func (WebhookEndpointRemoved) EventType() string  { return "WebhookEndpointRemoved" }
func (WebhookEndpointDisabled) EventType() string { return "WebhookEndpointDisabled" }

// AddWebhookEndpoint records endpoint id receiving events at url (checked
// by the caller against the deployment's address rules): at most
// MaxWebhookEndpoints at once, known event types.
func (a *Account) AddWebhookEndpoint(id, url string, events []string, now time.Time) error {
	if p := CheckWebhookEvents(events); p != "" {
		return Errorf(CodeInvalid, "%s", p)
	}
	if len(a.s.Webhooks) >= MaxWebhookEndpoints {
		return ErrTooManyWebhookEndpoints
	}
	if _, ok := a.s.Webhooks[id]; ok || id == "" {
		return Errorf(CodeConflict, "Webhook endpoint %q exists", id)
	}
	a.record(WebhookEndpointAdded{EndpointID: id, URL: url, Events: slices.Clone(events)}, now)
	return nil
}

// RollWebhookSecret records a new secret for endpoint id.
func (a *Account) RollWebhookSecret(id string, now time.Time) error {
	if _, ok := a.s.Webhooks[id]; !ok {
		return ErrWebhookEndpointNotFound
	}
	a.record(WebhookSecretRolled{EndpointID: id}, now)
	return nil
}

// RemoveWebhookEndpoint records the removal of endpoint id.
func (a *Account) RemoveWebhookEndpoint(id string, now time.Time) error {
	if _, ok := a.s.Webhooks[id]; !ok {
		return ErrWebhookEndpointNotFound
	}
	a.record(WebhookEndpointRemoved{EndpointID: id}, now)
	return nil
}

// DisableWebhookEndpoint records that endpoint id is disabled for reason;
// an endpoint removed or disabled already records nothing.
func (a *Account) DisableWebhookEndpoint(id, reason string, now time.Time) error {
	if disabled, ok := a.s.Webhooks[id]; !ok || disabled {
		return nil
	}
	a.record(WebhookEndpointDisabled{EndpointID: id, Reason: reason}, now)
	return nil
}

// HasWebhookEndpoint reports whether endpoint id is the account's (enabled
// or disabled).
func (a *Account) HasWebhookEndpoint(id string) bool {
	_, ok := a.s.Webhooks[id]
	return ok
}

// applyWebhook applies the webhook events to s; it reports false for any
// other.
func (s *state) applyWebhook(e Event) bool {
	switch e := e.(type) {
	case WebhookEndpointAdded:
		if s.Webhooks == nil {
			s.Webhooks = make(map[string]bool)
		}
		s.Webhooks[e.EndpointID] = false
	case WebhookSecretRolled:
	case WebhookEndpointRemoved:
		delete(s.Webhooks, e.EndpointID)
	case WebhookEndpointDisabled:
		if _, ok := s.Webhooks[e.EndpointID]; ok {
			s.Webhooks[e.EndpointID] = true
		}
	default:
		return false
	}
	return true
}
