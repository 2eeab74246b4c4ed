package domain

import (
	"reflect"
	"testing"
	"time"
)

func TestRegister(t *testing.T) {
	k := testKey(1)
	a, err := Register(testAccountID, "  Seller@Example.COM ", k, t0)
	if err != nil {
		t.Fatal(err)
	}
	thenEvents(t, a,
		AccountRegistered{AccountID: testAccountID, Email: "seller@example.com"},
		APIKeyIssued{KeyID: k.KeyID, Prefix: k.Prefix, Hash: k.Hash, Encrypted: k.Encrypted},
	)
	if a.Version() != 0 || a.ID() != testAccountID || a.Email() != "seller@example.com" || a.IsVerified() ||
		a.APIKeyID() != k.KeyID || a.APIKeyHash() != k.Hash || a.SubscriptionStatus() != StatusInactive ||
		a.SubscriptionID() != "" || a.PeriodEnd() != nil || a.Balance(t0) != 0 || a.NextExpiry() != nil {
		t.Fatalf("unexpected new account: %+v", a)
	}
}

func TestRegisterRejects(t *testing.T) {
	const badEmail = "Please enter a valid email address"
	for _, tc := range []struct {
		name, accountID, email string
		key                    APIKeyMaterial
		msg                    string
	}{
		{"empty email", testAccountID, "", testKey(1), badEmail},
		{"blank email", testAccountID, "   ", testKey(1), badEmail},
		{"no @", testAccountID, "seller.example.com", testKey(1), badEmail},
		{"nothing before @", testAccountID, "@example.com", testKey(1), badEmail},
		{"nothing after @", testAccountID, "seller@", testKey(1), badEmail},
		{"space inside", testAccountID, "sel ler@example.com", testKey(1), badEmail},
		{"no account id", " ", "seller@example.com", testKey(1), ""},
		{"no key hash", testAccountID, "seller@example.com", APIKeyMaterial{KeyID: "k", Prefix: "p", Encrypted: "e"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := Register(tc.accountID, tc.email, tc.key, t0)
			if a != nil || ErrorCode(err) != CodeInvalid {
				t.Fatalf("Register = %v, %v; want a %q error", a, err, CodeInvalid)
			}
			if tc.msg != "" && ErrorMessage(err) != tc.msg {
				t.Fatalf("message = %q, want %q", ErrorMessage(err), tc.msg)
			}
		})
	}
}

func TestRehydrate(t *testing.T) {
	a := given(t, EmailVerified{}, StaffNoteRecorded{Note: "hello"})
	if a.Version() != 4 || len(a.Changes()) != 0 || !a.IsVerified() {
		t.Fatalf("version %d, changes %v, verified %v", a.Version(), a.Changes(), a.IsVerified())
	}

	if _, err := Rehydrate(testAccountID, nil); ErrorCode(err) != CodeNotFound {
		t.Errorf("empty stream: %v, want %q", err, CodeNotFound)
	}
	for name, history := range map[string][]Recorded{
		"another account":        stream(AccountRegistered{AccountID: "acc-2", Email: "x@example.com"}),
		"not opened by register": stream(EmailVerified{}),
		"version gap":            {{Version: 1, At: t0, Event: opening()[0]}, {Version: 3, At: t0, Event: EmailVerified{}}},
	} {
		if a, err := Rehydrate(testAccountID, history); err == nil {
			t.Errorf("%s: Rehydrate = %+v, want an error", name, a)
		}
	}
}

func TestReplay(t *testing.T) {
	history := stream(append(opening(), EmailVerified{}, StaffNoteRecorded{Note: "n"})...)
	head, err := Rehydrate(testAccountID, history[:2])
	if err != nil {
		t.Fatal(err)
	}
	if err := head.Replay(history[3:]); err == nil {
		t.Fatal("Replay accepted a tail that skips a version")
	}
	if err := head.Replay(history[2:]); err != nil {
		t.Fatal(err)
	}
	if head.Version() != 4 || !head.IsVerified() {
		t.Fatalf("after Replay: version %d, verified %v", head.Version(), head.IsVerified())
	}
	if err := head.RecordStaffNote("pending", t0); err != nil {
		t.Fatal(err)
	}
	if err := head.Replay(nil); err == nil {
		t.Fatal("Replay accepted events on an account with pending changes")
	}
}

func TestIdentityCommands(t *testing.T) {
	run(t, []scenario{
		{
			name: "verify email",
			when: func(a *Account) error { return a.VerifyEmail(t0) },
			then: []Event{EmailVerified{}},
		},
		{
			name:    "verify twice",
			given:   []Event{EmailVerified{}},
			when:    func(a *Account) error { return a.VerifyEmail(t0) },
			wantErr: CodeConflict,
			wantMsg: "Email is already verified",
		},
		{
			name: "password reset",
			when: func(a *Account) error { return a.ChangePassword(PasswordChangeReasonReset, t0) },
			then: []Event{PasswordChanged{Reason: "reset"}},
		},
		{
			name: "password change",
			when: func(a *Account) error { return a.ChangePassword(PasswordChangeReasonChange, t0) },
			then: []Event{PasswordChanged{Reason: "change"}},
		},
		{
			name:    "password change for no known reason",
			when:    func(a *Account) error { return a.ChangePassword("whim", t0) },
			wantErr: CodeInvalid,
		},
		{
			name: "rotation records the previous key",
			when: func(a *Account) error { return a.RotateAPIKey(testKey(2), t0) },
			then: []Event{APIKeyRotated{KeyID: "key-2", PreviousKeyID: "key-1", Prefix: "a2e_2", Hash: "hash-2", Encrypted: "encrypted-2"}},
		},
		{
			name:  "second rotation records the rotated key as previous",
			given: []Event{APIKeyRotated{KeyID: "key-2", PreviousKeyID: "key-1", Prefix: "a2e_2", Hash: "hash-2", Encrypted: "encrypted-2"}},
			when:  func(a *Account) error { return a.RotateAPIKey(testKey(3), t0) },
			then:  []Event{APIKeyRotated{KeyID: "key-3", PreviousKeyID: "key-2", Prefix: "a2e_3", Hash: "hash-3", Encrypted: "encrypted-3"}},
		},
		{
			name:    "rotation to the current key",
			when:    func(a *Account) error { return a.RotateAPIKey(testKey(1), t0) },
			wantErr: CodeConflict,
		},
		{
			name:    "rotation with incomplete material",
			when:    func(a *Account) error { return a.RotateAPIKey(APIKeyMaterial{KeyID: "key-2"}, t0) },
			wantErr: CodeInvalid,
		},
		{
			name: "staff note",
			when: func(a *Account) error { return a.RecordStaffNote("  rebuilt the profile projection ", t0) },
			then: []Event{StaffNoteRecorded{Note: "rebuilt the profile projection"}},
		},
		{
			name:    "empty staff note",
			when:    func(a *Account) error { return a.RecordStaffNote(" ", t0) },
			wantErr: CodeInvalid,
		},
	})
}

func TestRotatedKeyReplacesTheOldOne(t *testing.T) {
	a := given(t)
	if err := a.RotateAPIKey(testKey(2), t0); err != nil {
		t.Fatal(err)
	}
	if a.APIKeyID() != "key-2" || a.APIKeyHash() != "hash-2" {
		t.Fatalf("key after rotation: %s %s", a.APIKeyID(), a.APIKeyHash())
	}
}

func TestChangesIsACopy(t *testing.T) {
	a := given(t)
	if err := a.VerifyEmail(t0); err != nil {
		t.Fatal(err)
	}
	a.Changes()[0] = StaffNoteRecorded{}
	thenEvents(t, a, EmailVerified{})
}

func TestRestoreSnapshotRejects(t *testing.T) {
	snap, err := given(t).Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		id      string
		version int64
		data    []byte
	}{
		"not JSON":        {testAccountID, 2, []byte("{")},
		"unknown format":  {testAccountID, 2, []byte(`{"format":99,"state":{"id":"acc-1"}}`)},
		"another account": {"acc-2", 2, snap},
		"no version":      {testAccountID, 0, snap},
	} {
		if a, err := RestoreSnapshot(tc.id, tc.version, tc.data); err == nil {
			t.Errorf("%s: RestoreSnapshot = %+v, want an error", name, a)
		}
	}
	a, err := RestoreSnapshot(testAccountID, 2, snap)
	if err != nil {
		t.Fatal(err)
	}
	if a.Version() != 2 || a.Email() != "seller@example.com" || !reflect.DeepEqual(a.s, given(t).s) {
		t.Fatalf("restored %+v", a)
	}
}

// An event type added to events.go without a case in apply must not slip by.
func TestApplyPanicsOnAForeignEvent(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("apply accepted an event it has no case for")
		}
	}()
	var s state
	s.apply(foreignEvent{}, time.Time{})
}
