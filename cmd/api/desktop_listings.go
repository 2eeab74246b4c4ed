package main

import (
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/listings"
)

// listingView is a listing request read back from the ledger
// (GET /v1/listings/{id} and the items of GET /v1/listings).
type listingView struct {
	ID             string    `json:"id"`
	ASIN           string    `json:"asin"`
	AmazonURL      string    `json:"amazonUrl"`
	Status         string    `json:"status"`
	CreatedAt      time.Time `json:"createdAt"`
	IdempotencyKey string    `json:"idempotencyKey,omitempty"`
	RequestID      string    `json:"requestId,omitempty"`
}

func viewOf(l listings.Listing) listingView {
	return listingView{ID: l.ID, ASIN: l.ASIN, AmazonURL: l.AmazonURL, Status: l.Status, CreatedAt: l.CreatedAt,
		IdempotencyKey: l.IdempotencyKey, RequestID: l.RequestID}
}

// listingPage is GET /v1/listings's answer; NextCursor is null on the last page.
type listingPage struct {
	Data       []listingView `json:"data"`
	NextCursor *string       `json:"nextCursor"`
}

// handleGetListing answers one of the caller's listing requests, from the
// ledger; another account's is 404 like an unknown one. It is free.
func handleGetListing(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		l, err := d.App.Queries.Listing.Handle(r.Context(), apiAccount(r.Context()), chi.URLParam(r, "id"))
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, viewOf(l))
	}
}

// handleListListings answers the caller's listing requests newest first, a
// page at a time, or the one an Idempotency-Key created. It is free.
func handleListListings(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q, err := listingQueryOf(r.URL.Query())
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		page, err := d.App.Queries.Listings.Handle(r.Context(), apiAccount(r.Context()), q)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		res := listingPage{Data: make([]listingView, 0, len(page.Listings))}
		for _, l := range page.Listings {
			res.Data = append(res.Data, viewOf(l))
		}
		if page.NextCursor != "" {
			res.NextCursor = &page.NextCursor
		}
		encode(w, http.StatusOK, res)
	}
}

// limitRule is the answer to a limit out of range.
var limitRule = "limit must be a whole number from 1 to " + strconv.Itoa(listings.MaxLimit)

// listingQueryOf reads limit, cursor and idempotencyKey; any other
// parameter is refused, so a misspelt one is not silently ignored.
func listingQueryOf(v url.Values) (listings.Query, error) {
	var q listings.Query
	problems := map[string]string{}
	for name, vals := range v {
		if len(vals) != 1 {
			problems[name] = name + " must be given once"
			continue
		}
		switch val := vals[0]; name {
		case "limit":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 || n > listings.MaxLimit {
				problems[name] = limitRule
			}
			q.Limit = n
		case "cursor":
			if err := listings.CheckCursor(val); err != nil {
				problems[name] = domain.ErrorMessage(err)
			}
			q.Cursor = val
		case "idempotencyKey": // the Idempotency-Key header's rule
			if val == "" || len(val) > maxIdempotencyKey || !printableASCII(val) {
				problems[name] = "idempotencyKey must be 1 to 255 printable ASCII characters"
			}
			q.IdempotencyKey = val
		default:
			problems[name] = "unknown query parameter " + strconv.Quote(name) + " (limit, cursor and idempotencyKey are known)"
		}
	}
	if len(problems) > 0 {
		return listings.Query{}, invalid(problems)
	}
	return q, nil
}
