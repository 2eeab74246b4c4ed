package main

import (
	"reflect"
	"testing"

	"github.com/a2e-automation/app/internal/catalog"
)

// The webapp prices nothing itself: every price it shows is one of these.
func TestPlansServeTheCatalogue(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	r := e.do(request{method: "GET", path: "/api/plans"})
	var got catalog.Catalog
	r.json(t, &got)
	if r.status != 200 || !reflect.DeepEqual(got, catalog.Get()) {
		t.Fatalf("GET /api/plans = %d %s, want %+v", r.status, r.body, catalog.Get())
	}
	if got.MinCustomPriceCents != 50 {
		t.Errorf("minCustomPriceCents = %d, want 50 (the provider's minimum charge)", got.MinCustomPriceCents)
	}
}
