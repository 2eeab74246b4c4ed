package main

import (
	"context"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/apikeys"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/listings"
	"github.com/a2e-automation/app/internal/sandbox"
)

// Test mode (issue 34, item 2): a request whose X-API-Key is an a2e_test_
// key is served here, from the account's sandbox, never by the live
// handlers: GET /v1/account (mode "test", the test credits),
// POST /v1/listings (a test credit; the test triggers), POST /v1/vero-checks
// (a test credit; the real list's answer) and the read-backs,
// which see only test listings. Anything else goes on to the live routes,
// whose spend decision refuses a test key (domain.Account.RequireAPIKey).
// The live path pays one prefix check per request.

type sandboxOriginal struct{}

// withSandbox sends test-key requests to the sandbox's routes.
func withSandbox(d Deps) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		sb := chi.NewRouter()
		sb.Use(withAPIKey(d)) // the key looked up in api_keys each time, as for the free reads
		sb.Get("/v1/account", handleSandboxAccount(d))
		sb.Post("/v1/listings", handleSandboxListing(d))
		sb.Post("/v1/vero-checks", handleSandboxVeroCheck(d))
		sb.Get("/v1/listings", handleSandboxListings(d))
		sb.Get("/v1/listings/{id}", handleSandboxGetListing(d))
		live := func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(w, r.Context().Value(sandboxOriginal{}).(*http.Request))
		}
		sb.NotFound(live)
		sb.MethodNotAllowed(live)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !apikeys.IsTest(sentAPIKey(r)) {
				next.ServeHTTP(w, r)
				return
			}
			ctx := context.WithValue(r.Context(), sandboxOriginal{}, r)
			sb.ServeHTTP(w, r.WithContext(context.WithValue(ctx, chi.RouteCtxKey, (*chi.Context)(nil))))
		})
	}
}

// sandboxAccountResponse is GET /v1/account in test mode: the live
// answer's fields, with the sandbox's figures (its test credits, counted as
// otherCredits; no debt, no monthly or purchased credits, never frozen), and
// mode "test".
type sandboxAccountResponse struct {
	Mode string `json:"mode"` // "test"
	accountResponse
}

func handleSandboxAccount(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := apiAccount(r.Context())
		credits, err := d.App.Queries.Sandbox.Credits(r.Context(), id)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		a, err := d.App.Queries.DesktopAccount.Handle(r.Context(), id)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, sandboxAccountResponse{Mode: "test", accountResponse: accountResponse{Email: a.Email,
			CreditsAvailable: credits, SubscriptionStatus: a.SubscriptionStatus, OtherCredits: credits}})
	}
}

// sandboxListing is a test listing as POST /v1/listings answers it (the live
// answer's fields) and as it is read back.
type sandboxListing struct {
	ID               string    `json:"id"`
	ASIN             string    `json:"asin"`
	AmazonURL        string    `json:"amazonUrl"`
	Status           string    `json:"status"`
	CreditsRemaining *int64    `json:"creditsRemaining,omitempty"`
	CreatedAt        time.Time `json:"createdAt"`
	IdempotencyKey   string    `json:"idempotencyKey,omitempty"`
	Mode             string    `json:"mode"` // "test"
}

func sandboxListingOf(l sandbox.Listing, withCredits bool) sandboxListing {
	v := sandboxListing{ID: l.ID, ASIN: l.ASIN, AmazonURL: l.AmazonURL, Status: listings.StatusQueued, CreatedAt: l.CreatedAt,
		IdempotencyKey: l.IdempotencyKey, Mode: "test"}
	if withCredits {
		v.CreditsRemaining = &l.CreditsRemaining
	}
	return v
}

func handleSandboxListing(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, idem, err := decodeMetered[listingRequest](r, listings.KeyPrefix)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		l, replayed, err := d.App.Commands.CreateSandboxListing.Handle(r.Context(), command.CreateSandboxListing{
			AccountID: apiAccount(r.Context()), APIKeyHash: apiKeyHash(r.Context()), IdempotencyKey: idem.sent, RequestHash: idem.hash, Product: req.product})
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		if replayed {
			w.Header().Set("Idempotent-Replayed", "true")
		}
		encode(w, http.StatusCreated, sandboxListingOf(l, true))
	}
}

// sandboxVeroCheck is POST /v1/vero-checks in test mode: the live answer's
// fields, with the test credits left, and mode "test".
type sandboxVeroCheck struct {
	command.VeroCheckResult
	Mode string `json:"mode"` // "test"
}

func handleSandboxVeroCheck(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, idem, err := decodeMetered[veroCheckRequest](r, listings.KeyPrefix)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		c, replayed, err := d.App.Commands.SandboxVeroCheck.Handle(r.Context(), command.SandboxVeroCheck{
			AccountID: apiAccount(r.Context()), APIKeyHash: apiKeyHash(r.Context()), IdempotencyKey: idem.sent, RequestHash: idem.hash, Brand: req.Brand})
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		if replayed {
			w.Header().Set("Idempotent-Replayed", "true")
		}
		encode(w, http.StatusOK, sandboxVeroCheck{VeroCheckResult: command.VeroCheckResult{ID: c.ID, Brand: c.Brand,
			Protected: c.Protected, CreditsRemaining: c.CreditsRemaining}, Mode: "test"})
	}
}

func handleSandboxGetListing(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		l, err := d.App.Queries.Sandbox.Listing(r.Context(), apiAccount(r.Context()), chi.URLParam(r, "id"))
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, sandboxListingOf(l, false))
	}
}

// sandboxListingPage is GET /v1/listings in test mode: the test listings,
// newest first, paged as the live read-back is (limit, cursor, nextCursor
// null on the last page).
type sandboxListingPage struct {
	Data       []sandboxListing `json:"data"`
	NextCursor *string          `json:"nextCursor"`
}

func handleSandboxListings(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		// A test-mode cursor is the sandbox's own (created_at and id), so it
		// is checked here and the live parameter rules do the rest.
		vals := r.URL.Query()
		cursor := vals["cursor"]
		vals.Del("cursor")
		q, err := listingQueryOf(vals)
		if err == nil && len(cursor) > 0 {
			if len(cursor) != 1 {
				err = invalid(map[string]string{"cursor": "cursor must be given once"})
			} else if cerr := sandbox.CheckCursor(cursor[0]); cerr != nil {
				err = invalid(map[string]string{"cursor": domain.ErrorMessage(cerr)})
			} else {
				q.Cursor = cursor[0]
			}
		}
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		if q.Limit == 0 {
			q.Limit = listings.DefaultLimit
		}
		found, next, err := d.App.Queries.Sandbox.Listings(r.Context(), apiAccount(r.Context()), q.Limit, q.Cursor, q.IdempotencyKey)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		res := sandboxListingPage{Data: make([]sandboxListing, 0, len(found))}
		for _, l := range found {
			res.Data = append(res.Data, sandboxListingOf(l, false))
		}
		if next != "" {
			res.NextCursor = &next
		}
		encode(w, http.StatusOK, res)
	}
}
