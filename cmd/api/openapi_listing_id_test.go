package main

import (
	"encoding/json"
	"testing"

	"github.com/google/uuid"
)

// TestOpenAPIListingIDIsOneType: the listing's id is typed one way in the
// document (the answer to POST /listings and a listing read back), and it
// is what the server sends: a UUID, on both answers.
func TestOpenAPIListingIDIsOneType(t *testing.T) {
	t.Parallel()
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]map[string]any `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openAPIFor("https://x.example"), &doc); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Listing", "ListingRecord", "VeroCheck"} {
		id := doc.Components.Schemas[name].Properties["id"]
		if id["type"] != "string" || id["format"] != "uuid" {
			t.Errorf("%s.id is %v, want a string of format uuid", name, id)
		}
	}

	e := newDesktopEnv(t, 100)
	e.grant(1)
	r := e.call("POST", "/v1/listings", map[string]string{"amazonUrl": "https://www.amazon.com/dp/B000000001"})
	var created listingView
	r.json(t, &created)
	if _, err := uuid.Parse(created.ID); r.status != 201 || err != nil {
		t.Fatalf("POST /v1/listings = %d, id %q", r.status, created.ID)
	}
	r = e.call("GET", "/v1/listings/"+created.ID, nil)
	var read listingView
	r.json(t, &read)
	if _, err := uuid.Parse(read.ID); r.status != 200 || err != nil || read.ID != created.ID {
		t.Fatalf("GET /v1/listings/{id} = %d, id %q", r.status, read.ID)
	}
}
