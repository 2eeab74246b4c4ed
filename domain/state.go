package domain

import (
	"fmt"
	"slices"
	"time"
)

// state is everything an account knows. apply alone changes it, and
// Snapshot stores it as JSON, so its fields are exported to encoding/json
// (the type itself is not). Snapshot writes that JSON with appendSnapshot
// (snapshot_encode.go), by hand: a field added here or in a type under it
// is written there too, or TestSnapshotEncoderMatchesEncodingJSON fails.
type state struct {
	ID           string `json:"id"`
	Email        string `json:"email"`
	Verified     bool   `json:"verified"`
	APIKeyID     string `json:"apiKeyId"`
	APIKeyHash   string `json:"apiKeyHash"`
	APIKeyPrefix string `json:"apiKeyPrefix,omitempty"`
	// Keys are the keys other than the primary (api_keys.go).
	Keys         []apiKey     `json:"keys,omitempty"`
	Subscription subscription `json:"subscription"`
	// Grants are the grants with credits left, in the order granted. A grant
	// past its expiry stays until its CreditsExpired event.
	Grants []Grant `json:"grants,omitempty"`
	// GrantIDs holds the id of every grant ever granted, so that a repeated
	// grant is ignored even after its credits are gone.
	GrantIDs map[string]bool `json:"grantIds,omitempty"`
	// Payments holds, per payment id, the statuses recorded for it.
	Payments map[string][]string `json:"payments,omitempty"`
	// Paid holds, per paid payment id, what it bought and what became of it,
	// for refunds and disputes.
	Paid map[string]*paidPayment `json:"paid,omitempty"`
	// Debt is the credits owed: revoked credits that were already spent.
	Debt int64 `json:"debt,omitempty"`
	// Disputes holds, per dispute id, "open", "won" or "lost".
	Disputes map[string]string `json:"disputes,omitempty"`
	// DisputedPayments holds, per dispute id, the payment it disputes.
	DisputedPayments map[string]string `json:"disputedPayments,omitempty"`
	// EndedSubscriptions holds, per subscription that ended other than at
	// the end of a cancellation, when its end was first recorded (deleted
	// at the provider, or past due and cancelled by the seller): Stripe
	// bills a subscription it deleted no more,
	// so a paid cycle that started before that is a late delivery and must
	// not restart it (StartOrRenewCycle).
	EndedSubscriptions map[string]time.Time `json:"endedSubscriptions,omitempty"`
	// Limits are the seller's spend limits and the spending they count.
	Limits spendLimits `json:"limits"`
	// Alerts are the seller's alert settings; LowBalance says a
	// low-balance alert stands (alerts.go).
	Alerts     AlertSettings `json:"alerts"`
	LowBalance bool          `json:"lowBalance,omitempty"`
	// Webhooks holds the webhook endpoints by id: true once disabled
	// (webhooks.go).
	Webhooks map[string]bool `json:"webhooks,omitempty"`
	// Recharge is the seller's auto-recharge (auto_recharge.go).
	Recharge recharge `json:"recharge"`
}

// cancelling reports whether the end of subscription id is the period end
// of a cancellation: the period end guards such an end (a paid cycle ending
// later restarts it, as a renewal after a late resume does), so it is not
// remembered in EndedSubscriptions.
func (sub subscription) cancelling(id string) bool {
	return sub.ID == id && sub.Status == StatusCancelling
}

// endedBefore reports whether subscription id's end was recorded when or
// after a cycle starting at periodStart began: a paid cycle that cannot
// restart it.
// A cycle starting later was billed by the provider after the end the ledger
// recorded, which therefore was its own inference (a cancelling
// subscription's period end) that a renewal proves wrong.
func (s *state) endedBefore(id string, periodStart time.Time) bool {
	at, ok := s.EndedSubscriptions[id]
	return ok && !periodStart.After(at)
}

// paidPayment is a paid payment as refunds and disputes need it.
type paidPayment struct {
	Kind          string `json:"kind"`
	AmountCents   int64  `json:"amountCents"`
	Credits       int64  `json:"credits"`
	GrantID       string `json:"grantId,omitempty"`
	RefundedCents int64  `json:"refundedCents,omitempty"`
	Revoked       int64  `json:"revoked,omitempty"` // credits settled by revocations so far
	Status        string `json:"status"`
}

const disputeOpen = "open"

type subscription struct {
	ID        string     `json:"id,omitempty"`
	Status    string     `json:"status"`
	PeriodEnd *time.Time `json:"periodEnd,omitempty"`
	EndsAt    *time.Time `json:"endsAt,omitempty"` // set by a cancellation
	Ended     bool       `json:"ended,omitempty"`
	// ChangedAt is when the seller last cancelled or resumed: a provider
	// update created before it is stale.
	ChangedAt *time.Time `json:"changedAt,omitempty"`
}

// apply changes s by e, recorded at at: each concern applies the events
// it owns and reports whether e was one of them.
func (s *state) apply(e Event, at time.Time) {
	s.noteEnded(e, at)
	switch {
	case s.Limits.apply(e, at), s.Recharge.apply(e, at), s.Subscription.apply(e, at),
		s.applyAlert(e), s.applyWebhook(e), s.applyKey(e, at),
		s.applyIdentity(e), s.applyCredits(e, at), s.applyPayment(e), s.applyDispute(e):
		return
	}
	switch e.(type) {
	case PasswordChanged, ListingRequested, VeroCheckPerformed, SoftwareDownloaded, StaffNoteRecorded:
		// Facts for history and the read models; no rule of the account reads them.
	default:
		// Only this package defines events, and DecodeEvent returns no others.
		panic(fmt.Sprintf("domain: apply: event %T has no case", e))
	}
}

// take removes draws from their grants, dropping the grants left empty.
func (s *state) take(draws []Draw) {
	for _, d := range draws {
		i := slices.IndexFunc(s.Grants, func(g Grant) bool { return g.ID == d.GrantID })
		if i < 0 {
			continue
		}
		if s.Grants[i].Remaining -= d.Amount; s.Grants[i].Remaining <= 0 {
			s.Grants = slices.Delete(s.Grants, i, i+1)
		}
	}
}

func timePtr(t time.Time) *time.Time { return &t }
