package domain

import (
	"strings"
	"testing"
	"time"
)

func TestAPIKeyCommands(t *testing.T) {
	expires := day(30)
	laptop := APIKeyCreated{KeyID: "key-2", Name: "Laptop", Mode: KeyModeLive, Prefix: "a2e_2", Hash: "hash-2", Encrypted: "encrypted-2"}
	run(t, []scenario{
		{
			name: "create a named key",
			when: func(a *Account) error { return a.CreateAPIKey(testKey(2), " Laptop ", KeyModeLive, &expires, t0) },
			then: []Event{APIKeyCreated{KeyID: "key-2", Name: "Laptop", Mode: KeyModeLive, Prefix: "a2e_2", Hash: "hash-2", Encrypted: "encrypted-2", ExpiresAt: &expires}},
		},
		{name: "empty name", when: func(a *Account) error { return a.CreateAPIKey(testKey(2), " ", KeyModeLive, nil, t0) }, wantErr: CodeInvalid, wantMsg: "A key name is required"},
		{name: "name too long", when: func(a *Account) error {
			return a.CreateAPIKey(testKey(2), strings.Repeat("x", 101), KeyModeLive, nil, t0)
		}, wantErr: CodeInvalid},
		{name: "unknown mode", when: func(a *Account) error { return a.CreateAPIKey(testKey(2), "x", "prod", nil, t0) }, wantErr: CodeInvalid},
		{name: "expiry in the past", when: func(a *Account) error { return a.CreateAPIKey(testKey(2), "x", KeyModeLive, ptr(day(-1)), t0) }, wantErr: CodeInvalid},
		{
			name:  "rotate a named key with a grace",
			given: []Event{laptop},
			when:  func(a *Account) error { return a.RotateKey("key-2", testKey(3), time.Hour, t0) },
			then: []Event{APIKeyRotated{KeyID: "key-3", PreviousKeyID: "key-2", Prefix: "a2e_3", Hash: "hash-3", Encrypted: "encrypted-3",
				PreviousRetiresAt: ptr(t0.Add(time.Hour)), Secondary: true, Name: "Laptop", Mode: KeyModeLive}},
		},
		{name: "grace out of range", given: []Event{laptop}, when: func(a *Account) error { return a.RotateKey("key-2", testKey(3), 86401*time.Second, t0) }, wantErr: CodeInvalid},
		{name: "rotate an unknown key", when: func(a *Account) error { return a.RotateKey("nope", testKey(3), 0, t0) }, wantErr: CodeNotFound},
		{name: "revoke", given: []Event{laptop}, when: func(a *Account) error { return a.RevokeAPIKey("key-2", t0) }, then: []Event{APIKeyRevoked{KeyID: "key-2"}}},
		{name: "revoke the primary", when: func(a *Account) error { return a.RevokeAPIKey("key-1", t0) }, wantErr: CodeConflict},
		{name: "revoke twice", given: []Event{laptop, APIKeyRevoked{KeyID: "key-2"}}, when: func(a *Account) error { return a.RevokeAPIKey("key-2", t0) }, wantErr: CodeNotFound},
		{
			name:  "expiry and the end of a grace are events",
			given: []Event{APIKeyCreated{KeyID: "key-2", Name: "Old", Mode: KeyModeLive, Prefix: "p", Hash: "hash-2", Encrypted: "e", ExpiresAt: ptr(day(1))}, laptop3(), APIKeyRotated{KeyID: "key-4", PreviousKeyID: "key-3", Prefix: "p4", Hash: "hash-4", Encrypted: "e4", PreviousRetiresAt: ptr(day(1)), Secondary: true, Name: "Laptop", Mode: KeyModeLive}},
			when:  func(a *Account) error { return a.ExpireAPIKeys(day(2)) },
			then:  []Event{APIKeyExpired{KeyID: "key-2", Reason: KeyExpiredReasonExpiry}, APIKeyExpired{KeyID: "key-3", Reason: KeyExpiredReasonGrace}},
		},
	})
}

func laptop3() Event {
	return APIKeyCreated{KeyID: "key-3", Name: "Laptop", Mode: KeyModeLive, Prefix: "a2e_3", Hash: "hash-3", Encrypted: "encrypted-3"}
}

// A key works until it is revoked, expires or its grace ends; the spend
// names the key it was made with.
func TestRequireAPIKeyJudgesEveryKey(t *testing.T) {
	a := given(t, CreditsGranted{GrantID: "g", Amount: 10, Source: SourcePurchase},
		APIKeyCreated{KeyID: "key-2", Name: "Laptop", Mode: KeyModeLive, Prefix: "a2e_2", Hash: "hash-2", Encrypted: "e", ExpiresAt: ptr(day(1))})
	if err := a.RequireAPIKey("hash-2", t0); err != nil {
		t.Fatal(err)
	}
	if err := a.Spend(OperationAPIRequest, "r1", t0); err != nil {
		t.Fatal(err)
	}
	spent := a.Changes()[0].(CreditsSpent)
	if spent.KeyID != "key-2" || spent.KeyName != "Laptop" || spent.KeyPrefix != "a2e_2" {
		t.Fatalf("spend names %+v", spent)
	}
	if err := a.RequireAPIKey("hash-2", day(1)); err != ErrAPIKeyNotCurrent {
		t.Fatalf("expired key: %v", err)
	}
	if err := a.RequireAPIKey("hash-1", day(1)); err != nil {
		t.Fatalf("primary key: %v", err)
	}
	if err := a.RotateKey("key-1", testKey(3), time.Minute, t0); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		hash string
		at   time.Time
		ok   bool
	}{{"hash-1", t0, true}, {"hash-3", t0, true}, {"hash-1", t0.Add(time.Minute), false}, {"hash-3", day(5), true}} {
		if err := a.RequireAPIKey(c.hash, c.at); (err == nil) != c.ok {
			t.Errorf("%s at %v: %v, want ok %v", c.hash, c.at, err, c.ok)
		}
	}
	if keys := a.APIKeys(); keys[0].ID != "key-3" || keys[0].Name != DefaultKeyName || !keys[0].Primary || len(keys) != 3 {
		t.Fatalf("keys after rotating the primary: %+v", keys)
	}
}

// Ten live keys at most, the primary included; a key in its grace does not count.
func TestTenLiveKeys(t *testing.T) {
	a := given(t)
	for i := 2; i <= 10; i++ {
		if err := a.CreateAPIKey(testKey(i), "k", KeyModeLive, nil, t0); err != nil {
			t.Fatalf("key %d: %v", i, err)
		}
	}
	if err := a.CreateAPIKey(testKey(11), "k", KeyModeLive, nil, t0); err != ErrTooManyAPIKeys {
		t.Fatalf("11th key: %v", err)
	}
	if err := a.RotateKey("key-2", testKey(12), time.Hour, t0); err != nil {
		t.Fatalf("rotation at the limit: %v", err)
	}
	if err := a.RevokeAPIKey("key-3", t0); err != nil {
		t.Fatal(err)
	}
	if err := a.CreateAPIKey(testKey(13), "k", KeyModeLive, nil, t0); err != nil {
		t.Fatalf("after a revocation: %v", err)
	}
}

// A test-mode key never spends the account's credits: the live decision
// refuses it (test mode has its sandbox).
func TestTestKeyRefusedByTheLiveDecision(t *testing.T) {
	a := given(t, APIKeyCreated{KeyID: "key-2", Name: "Sandbox", Mode: KeyModeTest, Prefix: "a2e_test_2", Hash: "hash-2", Encrypted: "e"})
	if err := a.RequireAPIKey("hash-2", t0); err != ErrAPIKeyNotCurrent {
		t.Fatalf("a test key in the live decision: %v", err)
	}
}
