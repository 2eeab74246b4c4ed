package a2e_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	a2e "github.com/a2e-automation/app/sdk/go"
)

// TestMain serves a small stand-in of the API for the examples, which read
// A2E_BASE_URL and A2E_API_KEY as a desktop app would.
func TestMain(m *testing.M) {
	api := httptest.NewServer(fakeAPI{})
	os.Setenv("A2E_BASE_URL", api.URL)
	os.Setenv("A2E_API_KEY", "example-key")
	code := m.Run()
	api.Close()
	os.Exit(code)
}

// Create a listing, then read the account's balance.
func Example() {
	c := a2e.NewClient(os.Getenv("A2E_API_KEY"), a2e.WithBaseURL(os.Getenv("A2E_BASE_URL")))
	ctx := context.Background()

	l, err := c.Listings.Create(ctx, a2e.CreateListingParams{AmazonURL: "https://www.amazon.com/dp/B08N5WRWNW"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(l.ID, l.ASIN, l.Status, *l.CreditsRemaining)

	acct, err := c.Account.Retrieve(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(acct.CreditsAvailable, acct.SpendingFrozen)
	// Output:
	// lst_1 B08N5WRWNW queued 4
	// 4 false
}

// The README's quick start, as written there (with the base URL from the
// environment).
func Example_quickStart() {
	c := a2e.NewClient(os.Getenv("A2E_API_KEY"), a2e.WithBaseURL(os.Getenv("A2E_BASE_URL"))) // base URL required
	ctx := context.Background()

	l, err := c.Listings.Create(ctx, a2e.CreateListingParams{AmazonURL: "https://www.amazon.com/dp/B08N5WRWNW"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(l.ID, l.Status, l.IdempotencyKey != "")
	if l.CreditsRemaining != nil { // nil when the listing was read back after an unknown outcome
		fmt.Println("credits left:", *l.CreditsRemaining)
	}

	l, err = c.Listings.Retrieve(ctx, l.ID) // free
	if err != nil {
		log.Fatal(err)
	}
	page, err := c.Listings.List(ctx, a2e.ListListingsParams{Limit: 20}) // newest first; page.NextCursor
	if err != nil {
		log.Fatal(err)
	}
	acct, err := c.Account.Retrieve(ctx) // free
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(l.ASIN, len(page.Data), acct.CreditsAvailable, acct.SpendingFrozen)
	// Output:
	// lst_1 queued true
	// credits left: 4
	// B08N5WRWNW 1 4 false
}

// Errors are *a2e.Error values that match a sentinel with errors.Is.
func ExampleError() {
	c := a2e.NewClient(spentKey, a2e.WithBaseURL(os.Getenv("A2E_BASE_URL"))) // an account without credits

	_, err := c.Listings.Create(context.Background(), a2e.CreateListingParams{AmazonURL: "https://www.amazon.com/dp/B08N5WRWNW"})
	var e *a2e.Error
	switch {
	case err == nil:
		fmt.Println("created")
	case errors.Is(err, a2e.ErrInsufficientCredits):
		fmt.Println("out of credits:", err)
	case errors.Is(err, a2e.ErrSpendingFrozen), errors.Is(err, a2e.ErrAuthentication):
		fmt.Println("ask the user to check the account:", err)
	case errors.As(err, &e) && e.OutcomeUnknown:
		fmt.Println("unknown outcome; resolve it later with the key", e.IdempotencyKey)
	default:
		fmt.Println("failed:", err)
	}
	// Output:
	// out of credits: a2e: 402 insufficient_credits: Insufficient credits (request r1)
}

// A desktop app keeps the key of a create it could not finish (the app
// quit, the network failed) and resolves it later: a listing found was
// created and charged once; none found, it was not, and the app can create
// it again with the same key.
func ExampleListingsService_FindByIdempotencyKey() {
	c := a2e.NewClient(os.Getenv("A2E_API_KEY"), a2e.WithBaseURL(os.Getenv("A2E_BASE_URL")))
	ctx := context.Background()

	for _, key := range []string{"pending-1", "never-sent"} {
		l, err := c.Listings.FindByIdempotencyKey(ctx, key)
		switch {
		case err != nil:
			fmt.Println("try again later:", err)
		case l != nil:
			fmt.Println(key, "created", l.ID)
		default:
			fmt.Println(key, "not created")
		}
	}
	// Output:
	// pending-1 created lst_1
	// never-sent not created
}

// spentKey is the key of the fake API's account without credits.
const spentKey = "key-of-an-account-without-credits"

// pending is the listing created with the Idempotency-Key "pending-1".
var pending = a2e.Listing{ID: "lst_1", ASIN: "B08N5WRWNW", AmazonURL: "https://www.amazon.com/dp/B08N5WRWNW",
	Status: "queued", CreatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), IdempotencyKey: "pending-1"}

// fakeAPI answers as the API does, for the examples: a create charges
// (4 credits remain), or is refused for spentKey; the read-back by key
// knows "pending-1"; the account has 4 credits.
type fakeAPI struct{}

func (fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	answer := func(status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	remaining := int64(4)
	switch {
	case r.Method == http.MethodPost && r.Header.Get("X-API-Key") == spentKey:
		answer(402, map[string]any{"code": "insufficient_credits", "message": "Insufficient credits", "requestId": "r1", "creditsRemaining": 0})
	case r.Method == http.MethodPost && r.URL.Path == "/v1/listings":
		l := pending
		l.CreditsRemaining, l.IdempotencyKey = &remaining, ""
		answer(201, l)
	case r.URL.Path == "/v1/listings/"+pending.ID:
		answer(200, pending)
	case r.URL.Path == "/v1/listings":
		data := []a2e.Listing{}
		if key := r.URL.Query().Get("idempotencyKey"); key == "" || key == pending.IdempotencyKey {
			data = append(data, pending)
		}
		answer(200, map[string]any{"data": data, "nextCursor": nil})
	case r.URL.Path == "/v1/account":
		answer(200, a2e.Account{Email: "seller@example.com", CreditsAvailable: remaining, OtherCredits: remaining})
	default:
		answer(404, map[string]any{"code": "not_found", "message": "Not found", "requestId": "r2"})
	}
}
