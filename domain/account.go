package domain

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	jsondecode "github.com/segmentio/encoding/json" // reads only: it ignores omitzero (issue 36)
)

// Account is the seller account aggregate: identity, API key, subscription
// and credit ledger of one stream. Its commands check the rules and record
// events; recording an event applies it, and nothing else changes the state.
//
// Commands take the current time as an argument. A command that returns an
// error records nothing.
type Account struct {
	version int64
	changes []Event
	s       state
	// caller is the key RequireAPIKey admitted for the command at hand;
	// not state: it is never stored.
	caller *APIKey
}

// APIKeyMaterial is a new API key as the domain sees it: an id, the short
// visible prefix, the lookup hash and the encrypted key, all produced outside
// the domain. The plain key never reaches it.
type APIKeyMaterial struct{ KeyID, Prefix, Hash, Encrypted string }

// Password change reasons.
const (
	PasswordChangeReasonReset  = "reset"  // completed a password reset
	PasswordChangeReasonChange = "change" // changed while signed in
)

// Register opens the account accountID for email with its first API key. The
// email is stored in its normal form (NormalizeEmail) and must pass
// CheckNewEmail.
func Register(accountID, email string, key APIKeyMaterial, now time.Time) (*Account, error) {
	if strings.TrimSpace(accountID) == "" {
		return nil, Errorf(CodeInvalid, "An account id is required")
	}
	email = NormalizeEmail(email)
	if err := CheckNewEmail(email); err != nil {
		return nil, err
	}
	if err := key.validate(); err != nil {
		return nil, err
	}
	a := &Account{}
	a.record(AccountRegistered{AccountID: accountID, Email: email}, now)
	a.record(APIKeyIssued{KeyID: key.KeyID, Prefix: key.Prefix, Hash: key.Hash, Encrypted: key.Encrypted}, now)
	return a, nil
}

// Rehydrate loads account accountID from its whole stream, which must open
// with its AccountRegistered and number its events 1, 2, 3 and so on. An
// empty stream is CodeNotFound.
func Rehydrate(accountID string, history []Recorded) (*Account, error) {
	if len(history) == 0 {
		return nil, Errorf(CodeNotFound, "Account not found")
	}
	if reg, ok := history[0].Event.(AccountRegistered); !ok || reg.AccountID != accountID {
		return nil, fmt.Errorf("rehydrate account %s: the stream does not open with its AccountRegistered", accountID)
	}
	a := &Account{}
	if err := a.Replay(history); err != nil {
		return nil, err
	}
	return a, nil
}

// Replay applies stored events that follow the account's version, such as
// the events appended after the snapshot it was restored from. They must
// continue its version one by one, and the account must have no pending
// changes.
func (a *Account) Replay(events []Recorded) error {
	if len(a.changes) > 0 {
		return fmt.Errorf("replay account %s: it has %d pending changes", a.s.ID, len(a.changes))
	}
	for _, r := range events {
		if r.Version != a.version+1 {
			return fmt.Errorf("replay account %s: event version %d follows version %d", a.s.ID, r.Version, a.version)
		}
		a.s.apply(r.Event, r.At)
		a.version = r.Version
	}
	return nil
}

// snapshotFormat is the version of the layout Snapshot writes. Format 2
// added paid payments, debt and disputes; format 3 spend limits and the
// spending they count (an older snapshot lacks the counts); format 4
// auto-recharge (its in-flight marker and month); format 5 named API keys and
// the primary key's prefix (issue 34); format 6 the marks of the spend
// limits' reaches recorded (SpendLimitReached); a snapshot of another format
// is not restored, and the account is loaded from its stream instead.
const snapshotFormat = 6

type snapshot struct {
	Format int   `json:"format"`
	State  state `json:"state"`
}

// Snapshot returns the account's whole state, pending changes included, as
// JSON for RestoreSnapshot. Grants whose credits are gone are not kept. The
// JSON is encoding/json's, written by appendSnapshot without reflection.
func (a *Account) Snapshot() ([]byte, error) {
	if data, ok := appendSnapshot(make([]byte, 0, 1024), &a.s); ok {
		return data, nil
	}
	data, err := json.Marshal(snapshot{Format: snapshotFormat, State: a.s})
	if err != nil {
		return nil, fmt.Errorf("snapshot account %s: %w", a.s.ID, err)
	}
	return data, nil
}

// RestoreSnapshot loads account accountID from a Snapshot taken at stream
// version version.
func RestoreSnapshot(accountID string, version int64, data []byte) (*Account, error) {
	var snap snapshot
	if err := jsondecode.Unmarshal(data, &snap); err != nil {
		return nil, fmt.Errorf("restore account %s: %w", accountID, err)
	}
	switch {
	case snap.Format != snapshotFormat:
		return nil, fmt.Errorf("restore account %s: unsupported snapshot format %d", accountID, snap.Format)
	case snap.State.ID != accountID:
		return nil, fmt.Errorf("restore account %s: the snapshot is of account %q", accountID, snap.State.ID)
	case version < 1:
		return nil, fmt.Errorf("restore account %s: snapshot version %d", accountID, version)
	}
	return &Account{version: version, s: snap.State}, nil
}

// Version returns the version of the last stored event the account was
// loaded with; pending changes do not count.
func (a *Account) Version() int64 { return a.version }

// Stored marks the account's pending changes as stored: its version moves
// past them, they are no longer pending and no caller is admitted, so the
// account is what loading it again would give (its snapshot's state is the
// same). For a repository that keeps the account its command left in
// memory, instead of decoding the snapshot it just wrote (internal/accounts);
// only after the changes did commit.
func (a *Account) Stored() {
	a.version += int64(len(a.changes))
	a.changes = nil
	a.caller = nil
}

// Changes returns the events recorded since the account was loaded, in order.
func (a *Account) Changes() []Event { return slices.Clone(a.changes) }

// ID returns the account id.
func (a *Account) ID() string { return a.s.ID }

// Email returns the account's email address, lowercased.
func (a *Account) Email() string { return a.s.Email }

// IsVerified reports whether the email address is verified.
func (a *Account) IsVerified() bool { return a.s.Verified }

// APIKeyHash returns the lookup hash of the primary API key.
func (a *Account) APIKeyHash() string { return a.s.APIKeyHash }

// APIKeyID returns the id of the primary API key.
func (a *Account) APIKeyID() string { return a.s.APIKeyID }

// VerifyEmail records that the seller proved ownership of the address.
func (a *Account) VerifyEmail(now time.Time) error {
	if a.s.Verified {
		return Errorf(CodeConflict, "Email is already verified")
	}
	a.record(EmailVerified{}, now)
	return nil
}

// ChangePassword records a password change; reason is
// PasswordChangeReasonReset or PasswordChangeReasonChange.
func (a *Account) ChangePassword(reason string, now time.Time) error {
	if reason != PasswordChangeReasonReset && reason != PasswordChangeReasonChange {
		return Errorf(CodeInvalid, "Unknown password change reason %q", reason)
	}
	a.record(PasswordChanged{Reason: reason}, now)
	return nil
}

func (k APIKeyMaterial) validate() error {
	if k.KeyID == "" || k.Prefix == "" || k.Hash == "" || k.Encrypted == "" {
		return Errorf(CodeInvalid, "API key material needs an id, a prefix, a hash and an encrypted key")
	}
	return nil
}

// RecordStaffNote records a support staff action that changes no balance.
func (a *Account) RecordStaffNote(note string, now time.Time) error {
	note = strings.TrimSpace(note)
	if note == "" {
		return Errorf(CodeInvalid, "A note is required")
	}
	a.record(StaffNoteRecorded{Note: note}, now)
	return nil
}

// record applies e as recorded at now and keeps it as a pending change.
func (a *Account) record(e Event, now time.Time) {
	a.s.apply(e, now)
	a.changes = append(a.changes, e)
}
