package main

import (
	"context"
	"testing"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/apikeys"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/testing/accountstest"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// Two API processes remember the same key; it is rotated through one, and
// the other refuses the old key on its very next call although its entry is
// still cached: validity is decided by the spend itself, on the account's
// state, not by the cache. Neither refusal charges, a retry of an earlier
// spend with the old key is refused too, and the new key works at once.
func TestRotatedKeyRefusedByEveryProcessAtOnce(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	url := testdb.NewURL(t)
	a := newTestEnvOn(t, cfg, url, testdb.Pool(t, url))
	b := newTestEnvOn(t, cfg, url, testdb.Pool(t, url))
	seller := a.seedAccount("two-processes@example.com")
	a.waitFor(accountstest.Do(t, a.repo(), seller.ID, accountstest.Grant(10, domain.SourcePurchase, nil)).LastPosition)
	listing := func(e *testEnv, key, idem string) response {
		h := map[string]string{"X-API-Key": key}
		if idem != "" {
			h["Idempotency-Key"] = idem
		}
		return e.do(request{method: "POST", path: "/v1/listings", body: map[string]string{"amazonUrl": productURL}, header: h})
	}
	balance := func() int64 {
		acc, err := a.repo().FromSnapshot(context.Background(), seller.ID)
		if err != nil {
			t.Fatal(err)
		}
		return acc.Balance(a.repo().Now())
	}

	old := seller.APIKey
	for _, e := range []*testEnv{a, b} {
		expect(t, "a spend with the key", listing(e, old, "before-rotation"), 201, "")
		if !e.deps.APIKeys.Remembers(apikeys.Hash(old)) {
			t.Fatal("a process does not remember the key it admitted")
		}
	}
	if bal := balance(); bal != 9 {
		t.Fatalf("balance %d after one spend and its replay, want 9", bal)
	}

	rotated, err := a.deps.App.Commands.RotateAPIKey.Handle(context.Background(), command.RotateAPIKey{AccountID: seller.ID, Metadata: eventstore.Metadata{Actor: "test"}})
	if err != nil {
		t.Fatal(err)
	}
	if !b.deps.APIKeys.Remembers(apikeys.Hash(old)) {
		t.Fatal("the other process forgot the old key by itself; the test would prove nothing")
	}
	r := listing(b, old, "")
	expect(t, "the old key on the other process", r, 401, "Invalid API key")
	if code := errorBodyOf(t, "the old key", r).Code; code != CodeAPIKeyInvalid {
		t.Fatalf("code %q, want %q", code, CodeAPIKeyInvalid)
	}
	if b.deps.APIKeys.Remembers(apikeys.Hash(old)) {
		t.Fatal("the refused key is still remembered")
	}
	// A replay is answered before any decision: the key is checked for it too.
	expect(t, "a replay with the old key on the rotating process", listing(a, old, "before-rotation"), 401, "Invalid API key")
	expect(t, "a VeRO check with the old key", b.do(request{method: "POST", path: "/v1/vero-checks",
		body: map[string]string{"brand": "Nike"}, header: map[string]string{"X-API-Key": old}}), 401, "Invalid API key")
	if bal := balance(); bal != 9 {
		t.Fatalf("refused calls charged: balance %d, want 9", bal)
	}
	for _, e := range []*testEnv{b, a} {
		expect(t, "the new key", listing(e, rotated.APIKey, ""), 201, "")
	}
	if bal := balance(); bal != 7 {
		t.Fatalf("balance %d, want 7", bal)
	}
}
