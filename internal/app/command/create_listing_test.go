package command

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/amazonurl"
)

var testProduct = amazonurl.Product{ASIN: "B000TEST01", Host: "www.amazon.com"}

func TestCreateListingChargesOneCreditAndRecordsTheRequest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.register("list@example.com")
	e.grant(r.AccountID, 3, nil)
	m, err := e.cmd.CreateListing.Handle(context.Background(), CreateListing{Spend: e.spend(r, ""), Product: testProduct})
	if err != nil {
		t.Fatal(err)
	}
	var l Listing
	if err := json.Unmarshal(m.Body, &l); err != nil {
		t.Fatal(err)
	}
	if l.ASIN != testProduct.ASIN || l.AmazonURL != testProduct.URL() || l.Status != "queued" || l.CreditsRemaining != 2 || l.ID == "" {
		t.Fatalf("answer %+v", l)
	}
	if m.Replayed {
		t.Fatal("a first call is not a replay")
	}
	if got := e.account(r.AccountID).Balance(e.now()); got != 2 {
		t.Fatalf("balance %d, want 2", got)
	}
	if ev := e.events(r.AccountID); ev["ListingRequested"] != 1 || ev[spends] != 1 || ev["CreditsSpent"] != 0 {
		t.Fatalf("events %v", ev)
	}
}

func TestCreateListingRefusesAnAccountWithoutCredits(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.register("broke@example.com")
	_, err := e.cmd.CreateListing.Handle(context.Background(), CreateListing{Spend: e.spend(r, ""), Product: testProduct})
	wantCode(t, err, domain.CodeInsufficientCredits)
	if ev := e.events(r.AccountID); ev[spends] != 0 || ev["ListingRequested"] != 0 {
		t.Fatalf("a refused spend left events %v", ev)
	}
}
