package main

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/a2e-automation/app/internal/apikeys"
	"github.com/a2e-automation/app/internal/auth"
)

// TestBrowserJourney walks the webapp's path: sign up, read the code from
// the development mailbox, verify, read the profile, regenerate the API
// key (the old one stops resolving at once) and sign out.
func TestBrowserJourney(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	ctx := context.Background()

	acc := e.register("journey@example.com")
	code := e.code(acc.Email)

	r := e.do(request{method: "POST", path: "/api/auth/verify-email", body: map[string]string{"code": code}, cookie: acc.Cookie})
	if r.status != http.StatusOK {
		t.Fatalf("verify = %d %s", r.status, r.body)
	}

	var p profileResponse
	r = e.do(request{method: "GET", path: "/api/user/profile", cookie: acc.Cookie})
	r.json(t, &p)
	if r.status != http.StatusOK || p.Email != acc.Email || !p.IsVerified || p.SubscriptionStatus != "inactive" || p.SubscriptionRenewalDate != nil ||
		!apikeys.LooksValid(p.APIKey) || p.CreditsAvailable != 0 {
		t.Fatalf("profile = %d %s", r.status, r.body)
	}
	if id, err := e.deps.Auth.AccountForAPIKey(ctx, apikeys.Hash(p.APIKey)); err != nil || id != acc.ID {
		t.Fatalf("issued key resolves to %q, %v", id, err)
	}

	firstKey := p.APIKey
	var regen regenerateResponse
	r = e.do(request{method: "POST", path: "/api/user/api-key/regenerate", cookie: acc.Cookie})
	r.json(t, &regen)
	if r.status != http.StatusOK || regen.APIKey == p.APIKey {
		t.Fatalf("regenerate = %d %s", r.status, r.body)
	}
	if _, err := e.deps.Auth.AccountForAPIKey(ctx, apikeys.Hash(p.APIKey)); !errors.Is(err, auth.ErrUnknownAPIKey) {
		t.Fatalf("old key after regeneration: %v", err)
	}
	if id, err := e.deps.Auth.AccountForAPIKey(ctx, apikeys.Hash(regen.APIKey)); err != nil || id != acc.ID {
		t.Fatalf("new key resolves to %q, %v", id, err)
	}
	e.do(request{method: "GET", path: "/api/user/profile", cookie: acc.Cookie}).json(t, &p)
	if p.APIKey != regen.APIKey {
		t.Fatal("the profile does not show the new key")
	}

	// The desktop client: the old key is refused, the new one is known but
	// the account has no credits yet.
	listing := map[string]string{"amazonUrl": "https://www.amazon.com/dp/B08N5WRWNW"}
	if r := e.do(request{method: "POST", path: "/v1/listings", body: listing, header: map[string]string{"X-API-Key": regen.APIKey}}); r.status != http.StatusPaymentRequired {
		t.Fatalf("/v1 with the new key and no credits = %d %s, want 402", r.status, r.body)
	}
	if r := e.do(request{method: "POST", path: "/v1/listings", body: listing, header: map[string]string{"X-API-Key": firstKey}}); r.status != http.StatusUnauthorized {
		t.Fatalf("/v1 with the old key = %d %s, want 401", r.status, r.body)
	}

	if r := e.do(request{method: "POST", path: "/api/logout", cookie: acc.Cookie}); r.status != http.StatusOK {
		t.Fatalf("logout = %d", r.status)
	}
	if r := e.do(request{method: "GET", path: "/api/user/profile", cookie: acc.Cookie}); r.status != http.StatusUnauthorized {
		t.Fatalf("profile after logout = %d", r.status)
	}
}
