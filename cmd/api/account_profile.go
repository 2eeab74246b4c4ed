package main

import (
	"errors"
	"net/http"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/app/query"
)

// profileResponse is GET /api/user/profile. The read table's plain columns
// come from the embedded row under their json tags (projections.Profile), so
// a new one is added there, not here; the fields below are derived.
type profileResponse struct {
	query.Profile
	SubscriptionStatus      string  `json:"subscriptionStatus"`
	SubscriptionRenewalDate *string `json:"subscriptionRenewalDate"` // RFC 3339, or null
	SubscriptionEndsAt      *string `json:"subscriptionEndsAt"`      // RFC 3339 while cancelling, else null
	// PremiumAccess: the plan's benefits (the software download) are
	// available; CanSubscribe: a new subscription may start. The server's
	// rules (domain), so the webapp never works them out.
	PremiumAccess bool   `json:"premiumAccess"`
	CanSubscribe  bool   `json:"canSubscribe"`
	APIKey        string `json:"apiKey"`
}

// rfc3339 is t as the API writes times, nil for none.
func rfc3339(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.UTC().Format(time.RFC3339)
	return &s
}

// errProfilePending answers while the projector has not written a new
// account's profile yet (query.ErrProfilePending).
var errProfilePending = errStatus(http.StatusServiceUnavailable, "Your account is still being set up. Please try again in a moment.")

// profilePending is err, or errProfilePending with a Retry-After when err
// is query.ErrProfilePending.
func profilePending(w http.ResponseWriter, err error) error {
	if errors.Is(err, query.ErrProfilePending) {
		w.Header().Set("Retry-After", "1")
		return errProfilePending
	}
	return err
}

// handleProfile answers the dashboard's profile (query.ProfileHandler): the
// profiles read table, with the API key decrypted for display.
func handleProfile(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p, err := d.App.Queries.Profile.Handle(r.Context(), currentSession(r.Context()).AccountID)
		if err = profilePending(w, err); err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		res := profileResponse{Profile: p, SubscriptionStatus: p.Status,
			SubscriptionRenewalDate: rfc3339(p.SubscriptionRenewalDate), APIKey: p.APIKey}
		res.PremiumAccess = domain.StatusHasPremiumAccess(res.SubscriptionStatus)
		res.CanSubscribe = domain.StatusAllowsSubscribing(res.SubscriptionStatus)
		if res.SubscriptionStatus == domain.StatusCancelling {
			res.SubscriptionEndsAt = rfc3339(p.SubscriptionEndsAt)
		}
		encode(w, http.StatusOK, res)
	}
}

type regenerateResponse struct {
	APIKey  string `json:"apiKey"`
	Message string `json:"message"`
}

// handleRegenerateAPIKey rotates the signed-in account's API key; the old
// key stops working in the same transaction.
func handleRegenerateAPIKey(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := currentSession(r.Context()).AccountID
		// Limited per account, failing open (a seller whose key leaked
		// must be able to rotate it while our Redis is away).
		if !d.Limits.allow(w, r, check{Key: id, Limit: limitKeyRotation, FailOpen: true, TooMany: msgTooManyRotations}) {
			return
		}
		rotated, err := d.App.Commands.RotateAPIKey.Handle(r.Context(), command.RotateAPIKey{AccountID: id, Metadata: metadata(r, "account:"+id)})
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		awaitProjections(d, r, rotated.Result.LastPosition)
		encode(w, http.StatusOK, regenerateResponse{APIKey: rotated.APIKey, Message: "API key regenerated"})
	}
}
