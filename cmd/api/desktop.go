package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/listings"
	"github.com/a2e-automation/app/internal/vero"
)

// accountResponse is GET /v1/account's answer.
type accountResponse struct {
	Email              string `json:"email"`
	CreditsAvailable   int64  `json:"creditsAvailable"`
	SubscriptionStatus string `json:"subscriptionStatus"`
}

// handleDesktopAccount answers the caller's email, balance and subscription
// status from the read tables, like the dashboard. It is free.
func handleDesktopAccount(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		a, err := d.Accounts.Current(r.Context(), apiAccount(r.Context()))
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, accountResponse{Email: a.Email(), CreditsAvailable: a.Balance(d.Accounts.Now()), SubscriptionStatus: a.SubscriptionStatus()})
	}
}

// listingRequest is POST /v1/listings's body.
type listingRequest struct {
	AmazonURL string           `json:"amazonUrl"`
	product   listings.Product // set by Valid
}

// badAmazonURL is the answer to an amazonUrl that is not a product address.
const badAmazonURL = "amazonUrl must be an Amazon product URL (for example https://www.amazon.com/dp/B08N5WRWNW)"

// Valid parses the Amazon URL and keeps the product it names.
func (q *listingRequest) Valid(context.Context) map[string]string {
	p, err := listings.ParseAmazonURL(q.AmazonURL)
	if err != nil {
		return map[string]string{"amazonUrl": badAmazonURL}
	}
	q.product = p
	return nil
}

// listingStatusQueued is a new listing request's status: paid for and
// waiting for the desktop software to copy the product.
const listingStatusQueued = "queued"

// listingResponse is POST /v1/listings's answer.
type listingResponse struct {
	ID               string    `json:"id"`
	ASIN             string    `json:"asin"`
	AmazonURL        string    `json:"amazonUrl"` // canonical: https://<marketplace>/dp/<asin>
	Status           string    `json:"status"`
	CreditsRemaining int64     `json:"creditsRemaining"`
	CreatedAt        time.Time `json:"createdAt"`
}

// handleCreateListing charges 1 credit for a request to copy an Amazon
// product to eBay and answers 201 with the queued listing request.
func handleCreateListing(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		idem, err := readIdempotency(r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		req, err := decode[listingRequest](r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		id, p := uuid.NewString(), req.product
		runMetered(w, r, d, http.StatusCreated, idem, func(_ context.Context, _ pgx.Tx, a *domain.Account, now time.Time) (any, error) {
			if err := a.RequestListing(id, p.ASIN, p.URL(), now); err != nil {
				return nil, err
			}
			// PostgreSQL keeps the event's time to the microsecond.
			return listingResponse{ID: id, ASIN: p.ASIN, AmazonURL: p.URL(), Status: listingStatusQueued,
				CreditsRemaining: a.Balance(now), CreatedAt: now.Truncate(time.Microsecond)}, nil
		})
	}
}

// veroCheckRequest is POST /v1/vero-checks's body.
type veroCheckRequest struct {
	Brand string `json:"brand"`
}

// maxBrandLength bounds a checked brand, in characters.
const maxBrandLength = 100

// Valid requires a brand of 1 to maxBrandLength characters once trimmed.
func (q veroCheckRequest) Valid(context.Context) map[string]string {
	switch n := utf8.RuneCountInString(vero.Clean(q.Brand)); {
	case n == 0:
		return map[string]string{"brand": "brand is required"}
	case n > maxBrandLength:
		return map[string]string{"brand": "brand must be at most 100 characters"}
	}
	return nil
}

// veroCheckResponse is POST /v1/vero-checks's answer.
type veroCheckResponse struct {
	ID               string `json:"id"`
	Brand            string `json:"brand"`
	Protected        bool   `json:"protected"`
	CreditsRemaining int64  `json:"creditsRemaining"`
}

// handleVeroCheck charges 1 credit and answers whether the brand is on the
// VeRO protected-brand list.
func handleVeroCheck(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		idem, err := readIdempotency(r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		req, err := decode[veroCheckRequest](r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		id, brand := uuid.NewString(), vero.Clean(req.Brand)
		runMetered(w, r, d, http.StatusOK, idem, func(ctx context.Context, tx pgx.Tx, a *domain.Account, now time.Time) (any, error) {
			protected, err := vero.IsProtected(ctx, tx, brand)
			if err != nil {
				return nil, err
			}
			if err := a.PerformVeroCheck(id, brand, protected, now); err != nil {
				return nil, err
			}
			return veroCheckResponse{ID: id, Brand: brand, Protected: protected, CreditsRemaining: a.Balance(now)}, nil
		})
	}
}

// runMetered runs cmd, a command that charges a credit and returns the
// answer, on the caller's account and writes that answer with status. The
// answer is kept with the request's Idempotency-Key: a retry gets it back
// byte for byte, with Idempotent-Replayed: true, and is not charged. A
// failed command keeps nothing, so its retry runs afresh.
func runMetered(w http.ResponseWriter, r *http.Request, d Deps, status int, idem idempotency, cmd accounts.Command) {
	id := apiAccount(r.Context())
	res, err := d.Accounts.Spend(r.Context(), id, eventstore.UpdateOptions{
		Metadata: metadata(r, "apikey:"+id), IdempotencyKey: idem.key, RequestHash: idem.hash,
	}, cmd)
	if err != nil {
		writeDesktopError(w, r, d, err)
		return
	}
	// No wait for the read tables: the answer comes from the aggregate, and a
	// desktop call must not slow down when the projector does.
	if res.Replayed {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(append(res.Result, '\n'))
}

// maxIdempotencyKey bounds the Idempotency-Key header, in bytes.
const maxIdempotencyKey = 255

// idempotency is a request's Idempotency-Key and the hash of what it asks
// (method, path and body); both empty without the header.
type idempotency struct{ key, hash string }

// readIdempotency reads the Idempotency-Key header and, when there is one,
// hashes the request; the body is put back for decode.
func readIdempotency(r *http.Request) (idempotency, error) {
	key := r.Header.Get("Idempotency-Key")
	if key == "" {
		return idempotency{}, nil
	}
	if len(key) > maxIdempotencyKey {
		return idempotency{}, errStatus(http.StatusBadRequest, "Idempotency-Key must be at most %d characters", maxIdempotencyKey)
	}
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, maxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return idempotency{}, errStatus(http.StatusRequestEntityTooLarge, "Request body is too large")
		}
		return idempotency{}, err
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	h := sha256.New()
	_, _ = io.WriteString(h, r.Method+" "+r.URL.Path+"\n")
	_, _ = h.Write(body)
	// The account's stream also holds Stripe's event ids ("stripe:…"): a
	// prefix keeps a client's keys from ever meeting them.
	return idempotency{key: "desktop:" + key, hash: hex.EncodeToString(h.Sum(nil))}, nil
}

// insufficientCreditsBody is the 402 answer: the domain's message and the
// balance, which is then always 0.
type insufficientCreditsBody struct {
	Message          string `json:"message"`
	CreditsRemaining int64  `json:"creditsRemaining"`
}

// writeDesktopError is writeError, except that a 402 also tells
// creditsRemaining, as the successful answers do.
func writeDesktopError(w http.ResponseWriter, r *http.Request, d Deps, err error) {
	if domain.ErrorCode(err) == domain.CodeInsufficientCredits {
		encode(w, http.StatusPaymentRequired, insufficientCreditsBody{Message: domain.ErrorMessage(err)})
		return
	}
	writeError(w, r, d.Log, err)
}
