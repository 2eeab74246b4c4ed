package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/a2e-automation/app/internal/amazonurl"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/listings"
	"github.com/a2e-automation/app/internal/vero"
)

// accountResponse is GET /v1/account's answer: what the dashboard shows of
// the account's credits and standing.
type accountResponse struct {
	Email              string `json:"email"`
	CreditsAvailable   int64  `json:"creditsAvailable"`
	SubscriptionStatus string `json:"subscriptionStatus"`
	// SpendingFrozen: a payment dispute is open, spends answer 403.
	SpendingFrozen bool  `json:"spendingFrozen"`
	CreditDebt     int64 `json:"creditDebt"` // credits owed; the next grant repays them first
	// MonthlyCredits are the subscription's credits left, which expire at
	// MonthlyCreditsExpireAt (null when there are none).
	MonthlyCredits         int64      `json:"monthlyCredits"`
	MonthlyCreditsExpireAt *time.Time `json:"monthlyCreditsExpireAt"`
	PurchasedCredits       int64      `json:"purchasedCredits"` // bought credit packs' credits left; they never expire
	OtherCredits           int64      `json:"otherCredits"`     // promotional and support-granted credits left
}

// handleDesktopAccount answers the caller's email, balance and standing
// from the account itself (its snapshot), so it agrees with the answer just
// received. It is free.
func handleDesktopAccount(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		a, err := d.App.Queries.DesktopAccount.Handle(r.Context(), apiAccount(r.Context()))
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		b := a.Credits
		encode(w, http.StatusOK, accountResponse{Email: a.Email, CreditsAvailable: a.CreditsAvailable, SubscriptionStatus: a.SubscriptionStatus,
			SpendingFrozen: a.SpendingFrozen, CreditDebt: a.CreditDebt, MonthlyCredits: b.Monthly,
			MonthlyCreditsExpireAt: b.MonthlyExpireAt, PurchasedCredits: b.Purchased, OtherCredits: b.Other})
	}
}

// listingRequest is POST /v1/listings's body.
type listingRequest struct {
	AmazonURL string            `json:"amazonUrl"`
	product   amazonurl.Product // set by Valid
}

func (*listingRequest) quickDecoded() {}

// badAmazonURL is the answer to an amazonUrl that is not a product address;
// shortAmazonURL to a short link, saying what to send instead.
const (
	badAmazonURL   = "amazonUrl must be an Amazon product URL (for example https://www.amazon.com/dp/B08N5WRWNW)"
	shortAmazonURL = "amazonUrl is a short link (a.co, amzn.to): open it and send the full product URL with /dp/ASIN (for example https://www.amazon.com/dp/B08N5WRWNW)"
)

// Valid parses the Amazon URL and keeps the product it names.
func (q *listingRequest) Valid(context.Context) map[string]string {
	p, err := amazonurl.Parse(q.AmazonURL)
	if errors.Is(err, amazonurl.ErrShortLink) {
		return map[string]string{"amazonUrl": shortAmazonURL}
	}
	if err != nil {
		return map[string]string{"amazonUrl": badAmazonURL}
	}
	q.product = p
	return nil
}

// handleCreateListing charges 1 credit for a request to copy an Amazon
// product to eBay and answers 201 with the queued listing request
// (command.CreateListingHandler).
func handleCreateListing(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, idem, err := decodeMetered[listingRequest](r, listings.KeyPrefix)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		res, err := d.App.Commands.CreateListing.Handle(r.Context(), command.CreateListing{Spend: spendOf(r, idem), Product: req.product})
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		writeMetered(w, http.StatusCreated, res)
	}
}

// veroCheckRequest is POST /v1/vero-checks's body.
type veroCheckRequest struct {
	Brand string `json:"brand"`
}

func (*veroCheckRequest) quickDecoded() {}

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

// handleVeroCheck charges 1 credit and answers whether the brand is on the
// VeRO protected-brand list (command.VeroCheckHandler).
func handleVeroCheck(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, idem, err := decodeMetered[veroCheckRequest](r, listings.KeyPrefix)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		res, err := d.App.Commands.VeroCheck.Handle(r.Context(), command.VeroCheck{Spend: spendOf(r, idem), Brand: req.Brand})
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		writeMetered(w, http.StatusOK, res)
	}
}

// spendOf is what a metered call charges: the caller's account, with the
// request's Idempotency-Key and hash.
func spendOf(r *http.Request, idem idempotency) command.Spend {
	id := apiAccount(r.Context())
	md := metadata(r, "apikey:"+id)
	md.IdempotencyKey = idem.sent
	return command.Spend{AccountID: id, APIKeyHash: apiKeyHash(r.Context()), IdempotencyKey: idem.key, RequestHash: idem.hash, Metadata: md}
}

// writeMetered writes a metered command's answer with status: the JSON kept
// with the Idempotency-Key, byte for byte, and Idempotent-Replayed: true
// when it is a retry's, which was not charged.
func writeMetered(w http.ResponseWriter, status int, res command.Metered) {
	// No wait for the read tables: the answer comes from the aggregate, and a
	// desktop call must not slow down when the projector does.
	if res.Replayed {
		w.Header().Set("Idempotent-Replayed", "true")
		if res.OriginalRequestID != "" {
			w.Header().Set("Original-Request-Id", res.OriginalRequestID)
		}
	}
	w.Header()["Content-Type"] = jsonContentType
	w.WriteHeader(status)
	_, _ = w.Write(res.Body) // buffered by net/http: two writes, one packet, no copy of the body
	_, _ = w.Write(newline)
}

// newline ends a metered answer's body, as json.Encoder ends encode's.
var newline = []byte{'\n'}

// maxIdempotencyKey bounds the Idempotency-Key header, in bytes.
const maxIdempotencyKey = 255

// idempotency is a request's Idempotency-Key and the hash of what it asks
// (method, path and body); both empty without the header.
type idempotency struct {
	key  string // as stored, prefixed
	sent string // as the client sent it
	hash string
}

// decodeMetered decodes a money call's JSON body into T, as decode does,
// and reads its Idempotency-Key header; when there is one, the request
// (method, path and body, read once) is hashed with it. prefix keeps each
// caller's keys apart on the account's stream (listings.KeyPrefix for the
// desktop client, command.AdjustmentKeyPrefix for staff adjustments).
func decodeMetered[T any](r *http.Request, prefix string) (T, idempotency, error) {
	var v T
	key, err := idempotencyKeyOf(r)
	if err != nil {
		return v, idempotency{}, err
	}
	body, err := readJSONBody(r)
	if err != nil {
		return v, idempotency{}, err
	}
	if v, err = decodeJSON[T](r, body); err != nil {
		return v, idempotency{}, err
	}
	if key == "" {
		return v, idempotency{}, nil
	}
	return v, idempotencyOf(r, prefix, key, body), nil
}

// idempotencyKeyOf is the request's Idempotency-Key header, "" for none.
// A header sent empty is refused, not taken for none: the client meant a
// key, and without one its retry would be charged again.
func idempotencyKeyOf(r *http.Request) (string, error) {
	values := r.Header.Values("Idempotency-Key")
	if len(values) == 0 {
		return "", nil
	}
	key := values[0]
	if strings.TrimSpace(key) == "" {
		return "", invalid(map[string]string{"Idempotency-Key": fmt.Sprintf("Idempotency-Key must be 1 to %d characters", maxIdempotencyKey)})
	}
	if len(key) > maxIdempotencyKey {
		return "", invalid(map[string]string{"Idempotency-Key": fmt.Sprintf("Idempotency-Key must be at most %d characters", maxIdempotencyKey)})
	}
	return key, nil
}

// idempotencyOf is key, stored with prefix, with the hash of what the
// request asks: method, path and body.
func idempotencyOf(r *http.Request, prefix, key string, body []byte) idempotency {
	// The hash is of r.Method+" "+r.URL.Path+"\n" and the body. A usual
	// body (at most 4 KiB) is hashed from one buffer with sha256.Sum256, the
	// sum and its hex on the stack: two allocations, the buffer and the
	// hash's string, where the streamed digest makes six (issue 36).
	var sum [sha256.Size]byte
	if len(body) <= 4<<10 {
		in := make([]byte, 0, len(r.Method)+len(r.URL.Path)+2+len(body))
		in = append(append(append(append(append(in, r.Method...), ' '), r.URL.Path...), '\n'), body...)
		sum = sha256.Sum256(in)
	} else {
		h := sha256.New()
		_, _ = io.WriteString(h, r.Method+" "+r.URL.Path+"\n")
		_, _ = h.Write(body)
		copy(sum[:], h.Sum(nil)) // not h.Sum(sum[:0]): through the interface, sum would escape
	}
	var text [2 * sha256.Size]byte
	hex.Encode(text[:], sum[:])
	// The account's stream also holds Stripe's event ids ("stripe:…"): the
	// prefix keeps a client's keys from ever meeting them.
	return idempotency{key: prefix + key, sent: key, hash: string(text[:])}
}
