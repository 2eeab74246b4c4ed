package main

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/projections"
)

type profileResponse struct {
	Email                   string  `json:"email"`
	IsVerified              bool    `json:"isVerified"`
	SubscriptionStatus      string  `json:"subscriptionStatus"`
	SubscriptionRenewalDate *string `json:"subscriptionRenewalDate"` // RFC 3339, or null
	SubscriptionEndsAt      *string `json:"subscriptionEndsAt"`      // RFC 3339 while cancelling, else null
	// PremiumAccess: the plan's benefits (the software download) are
	// available; CanSubscribe: a new subscription may start. The server's
	// rules (domain), so the webapp never works them out.
	PremiumAccess    bool   `json:"premiumAccess"`
	CanSubscribe     bool   `json:"canSubscribe"`
	APIKey           string `json:"apiKey"`
	CreditsAvailable int64  `json:"creditsAvailable"`
	CreditDebt       int64  `json:"creditDebt"`     // credits owed; the next grant repays them first
	SpendingFrozen   bool   `json:"spendingFrozen"` // a payment dispute is open
	ListingsCreated  int64  `json:"listingsCreated"`
	VeroChecks       int64  `json:"veroChecks"`
	// LowBalance: a low-balance alert stands (issue 33): the dashboard's
	// banner shows until the balance recovers.
	LowBalance bool `json:"lowBalance"`
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
// account's profile yet.
var errProfilePending = errStatus(http.StatusServiceUnavailable, "Your account is still being set up. Please try again in a moment.")

// profileOf reads accountID's profile. A missing row means the projector
// has not applied the registration yet: it waits for that event, bounded,
// then answers errProfilePending.
func profileOf(ctx context.Context, d Deps, accountID string) (projections.Profile, error) {
	p, err := d.Reader.Profile(ctx, accountID)
	if !errors.Is(err, projections.ErrNoProfile) {
		return p, err
	}
	if d.Projections.WaitForStreamStart(ctx, domain.StreamID(accountID), readYourWritesTimeout, projections.Profiles{}.Name()) == nil {
		if p, err = d.Reader.Profile(ctx, accountID); !errors.Is(err, projections.ErrNoProfile) {
			return p, err
		}
	}
	return projections.Profile{}, errProfilePending
}

// handleProfile answers the dashboard's profile from the profiles read
// table, with the API key decrypted for display.
func handleProfile(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := currentSession(r.Context()).AccountID
		p, err := profileOf(r.Context(), d, id)
		if err != nil {
			if errors.Is(err, errProfilePending) {
				w.Header().Set("Retry-After", "1")
			}
			writeError(w, r, d.Log, err)
			return
		}
		res := profileResponse{
			Email: p.Email, IsVerified: p.IsVerified, SubscriptionStatus: p.StatusAt(d.Accounts.Now()),
			SubscriptionRenewalDate: rfc3339(p.SubscriptionRenewalDate), CreditsAvailable: p.CreditsAvailable,
			CreditDebt: p.CreditDebt, SpendingFrozen: p.SpendingFrozen, ListingsCreated: p.ListingsCreated, VeroChecks: p.VeroChecks,
			LowBalance: p.LowBalance,
		}
		res.PremiumAccess = domain.StatusHasPremiumAccess(res.SubscriptionStatus)
		res.CanSubscribe = domain.StatusAllowsSubscribing(res.SubscriptionStatus)
		if res.SubscriptionStatus == domain.StatusCancelling {
			res.SubscriptionEndsAt = rfc3339(p.SubscriptionEndsAt)
		}
		if p.APIKeyEncrypted != "" {
			// A key that no longer decrypts (APP_SECRET changed) shows as
			// empty; regenerating it gives a working one.
			if res.APIKey, err = d.Keys.Decrypt(p.APIKeyEncrypted); err != nil {
				d.Log.ErrorContext(r.Context(), "API key does not decrypt", "account", id, "err", err)
			}
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
		if !d.Limits.allow(w, r, d, id, limitKeyRotation, true, false, msgTooManyRotations, "") {
			return
		}
		rotated, err := d.Commands.RotateAPIKey.Handle(r.Context(), command.RotateAPIKey{AccountID: id, Metadata: metadata(r, "account:"+id)})
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		awaitProjections(d, r, rotated.Result.LastPosition)
		encode(w, http.StatusOK, regenerateResponse{APIKey: rotated.APIKey, Message: "API key regenerated"})
	}
}
