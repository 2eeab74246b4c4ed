package domain

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// Named API keys (issue 34). An account has one primary key, "Default": the
// key it was registered with, the profile's apiKey, the one
// POST /api/user/api-key/regenerate replaces. Beside it, up to
// MaxKeysPerMode-1 more live keys, each with a name and an optional expiry,
// and the keys a rotation keeps working until its grace ends. Every change
// is an event; the state holds each key's lookup hash, never the key.

// Key modes.
const (
	KeyModeLive = "live"
	KeyModeTest = "test"
)

// Key limits and names.
const (
	DefaultKeyName   = "Default"
	MaxKeysPerMode   = 10             // working keys of one mode, the primary included; keys in a rotation's grace do not count
	MaxKeyNameLength = 100            // characters
	MaxRotationGrace = 24 * time.Hour // 86,400 seconds
)

// Why a key stopped working on its own (APIKeyExpired.Reason).
const (
	KeyExpiredReasonExpiry = "expired" // its expiresAt came
	KeyExpiredReasonGrace  = "rotated" // the grace of its rotation ended
)

// apiKey is a key other than the primary, as the state keeps it.
type apiKey struct {
	ID        string     `json:"id"`
	Name      string     `json:"name"`
	Prefix    string     `json:"prefix"`
	Mode      string     `json:"mode"`
	Hash      string     `json:"hash"`
	CreatedAt time.Time  `json:"createdAt"`
	ExpiresAt *time.Time `json:"expiresAt,omitempty"`
	// RetiresAt is the end of the grace of the rotation that replaced it.
	RetiresAt *time.Time `json:"retiresAt,omitempty"`
}

// APIKey is a key as the account's commands and readers see it.
type APIKey struct {
	ID, Name, Prefix, Mode string
	Primary                bool
	ExpiresAt, RetiresAt   *time.Time
}

// works reports whether k admits calls at now.
func (k apiKey) works(now time.Time) bool {
	return (k.ExpiresAt == nil || now.Before(*k.ExpiresAt)) && (k.RetiresAt == nil || now.Before(*k.RetiresAt))
}

func (k apiKey) public() APIKey {
	return APIKey{ID: k.ID, Name: k.Name, Prefix: k.Prefix, Mode: k.Mode, ExpiresAt: k.ExpiresAt, RetiresAt: k.RetiresAt}
}

// primaryKey is the primary key as an APIKey.
func (s *state) primaryKey() APIKey {
	return APIKey{ID: s.APIKeyID, Name: DefaultKeyName, Prefix: s.APIKeyPrefix, Mode: KeyModeLive, Primary: true}
}

// APIKeys returns the account's keys, the primary first, then the others in
// the order they were made.
func (a *Account) APIKeys() []APIKey {
	out := []APIKey{a.s.primaryKey()}
	for _, k := range a.s.Keys {
		out = append(out, k.public())
	}
	return out
}

// ErrAPIKeyNotCurrent refuses a call made with a key that does not work: no
// key of the account, revoked, expired, or rotated and past its grace.
var ErrAPIKeyNotCurrent = Errorf(CodeUnauthorized, "Invalid API key")

// RequireAPIKey refuses keyHash unless it is the lookup hash of one of the
// account's live keys that works at now: a caller admitted by a remembered key is
// checked against the account itself, inside the command that acts for it.
// The key admitted is the caller: the spends the command records next name
// it (CreditsSpent.KeyID, KeyName, KeyPrefix, also when the charge is
// carried by a ListingRequested or VeroCheckPerformed: SpendOf).
func (a *Account) RequireAPIKey(keyHash string, now time.Time) error {
	a.caller = nil
	if keyHash == "" {
		return ErrAPIKeyNotCurrent
	}
	if keyHash == a.s.APIKeyHash {
		k := a.s.primaryKey()
		a.caller = &k
		return nil
	}
	for _, k := range a.s.Keys {
		if k.Hash == keyHash {
			// A test key never spends the account's credits: test mode
			// has its sandbox (internal/sandbox).
			if !k.works(now) || k.Mode == KeyModeTest {
				return ErrAPIKeyNotCurrent
			}
			pk := k.public()
			a.caller = &pk
			return nil
		}
	}
	return ErrAPIKeyNotCurrent
}

// Caller is the key RequireAPIKey admitted, if any.
func (a *Account) Caller() (APIKey, bool) {
	if a.caller == nil {
		return APIKey{}, false
	}
	return *a.caller, true
}

// ErrTooManyAPIKeys and ErrTooManyTestKeys refuse a key past MaxKeysPerMode.
var (
	ErrTooManyAPIKeys  = Errorf(CodeInvalid, "An account can have at most %d live API keys", MaxKeysPerMode)
	ErrTooManyTestKeys = Errorf(CodeInvalid, "An account can have at most %d test API keys", MaxKeysPerMode)
)

// CheckAPIKeyName returns name trimmed, or an error saying what is wrong.
func CheckAPIKeyName(name string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "", Errorf(CodeInvalid, "A key name is required")
	case utf8.RuneCountInString(name) > MaxKeyNameLength:
		return "", Errorf(CodeInvalid, "A key name can have at most %d characters", MaxKeyNameLength)
	}
	return name, nil
}

// CreateAPIKey records a new key named name of mode, working until
// expiresAt (nil: until revoked).
func (a *Account) CreateAPIKey(key APIKeyMaterial, name, mode string, expiresAt *time.Time, now time.Time) error {
	if err := key.validate(); err != nil {
		return err
	}
	name, err := CheckAPIKeyName(name)
	if err != nil {
		return err
	}
	if mode != KeyModeLive && mode != KeyModeTest {
		return Errorf(CodeInvalid, "mode must be live or test")
	}
	if expiresAt != nil && !expiresAt.After(now) {
		return Errorf(CodeInvalid, "expiresAt must be in the future")
	}
	if a.workingKeys(mode, now) >= MaxKeysPerMode {
		if mode == KeyModeTest {
			return ErrTooManyTestKeys
		}
		return ErrTooManyAPIKeys
	}
	if a.hasKey(key.KeyID) {
		return Errorf(CodeConflict, "The API key already exists")
	}
	a.record(APIKeyCreated{KeyID: key.KeyID, Name: name, Mode: mode, Prefix: key.Prefix, Hash: key.Hash,
		Encrypted: key.Encrypted, ExpiresAt: expiresAt}, now)
	return nil
}

// workingKeys counts the keys of mode that work at now and are not in a
// rotation's grace.
func (a *Account) workingKeys(mode string, now time.Time) int {
	n := 0
	if mode == KeyModeLive {
		n = 1 // the primary
	}
	for _, k := range a.s.Keys {
		if k.Mode == mode && k.RetiresAt == nil && k.works(now) {
			n++
		}
	}
	return n
}

func (a *Account) hasKey(id string) bool {
	return id == a.s.APIKeyID || slices.ContainsFunc(a.s.Keys, func(k apiKey) bool { return k.ID == id })
}

// ErrAPIKeyNotFound is the answer for a key id the account does not have.
var ErrAPIKeyNotFound = Errorf(CodeNotFound, "API key not found")

// RotateAPIKey replaces the primary key with key; the previous key stops
// working at once.
func (a *Account) RotateAPIKey(key APIKeyMaterial, now time.Time) error {
	return a.RotateKey(a.s.APIKeyID, key, 0, now)
}

// RotateKey replaces key id with key, which takes its name, mode and
// expiry; the old key keeps working for grace (0: it stops at once).
func (a *Account) RotateKey(id string, key APIKeyMaterial, grace time.Duration, now time.Time) error {
	if err := key.validate(); err != nil {
		return err
	}
	if grace < 0 || grace > MaxRotationGrace {
		return Errorf(CodeInvalid, "graceSeconds must be between 0 and %d", int(MaxRotationGrace/time.Second))
	}
	if a.hasKey(key.KeyID) {
		return Errorf(CodeConflict, "The API key is already the current one")
	}
	e := APIKeyRotated{KeyID: key.KeyID, PreviousKeyID: id, Prefix: key.Prefix, Hash: key.Hash, Encrypted: key.Encrypted}
	if id != a.s.APIKeyID {
		i := slices.IndexFunc(a.s.Keys, func(k apiKey) bool { return k.ID == id })
		if i < 0 || !a.s.Keys[i].works(now) {
			return ErrAPIKeyNotFound
		}
		if a.s.Keys[i].RetiresAt != nil {
			return Errorf(CodeConflict, "The API key was already rotated")
		}
		k := a.s.Keys[i]
		e.Secondary, e.Name, e.Mode, e.ExpiresAt = true, k.Name, k.Mode, k.ExpiresAt
	}
	if grace > 0 {
		e.PreviousRetiresAt = timePtr(now.Add(grace))
	}
	a.record(e, now)
	return nil
}

// RevokeAPIKey stops key id at once. The primary key is not revoked but
// rotated (every account keeps one key the profile shows).
func (a *Account) RevokeAPIKey(id string, now time.Time) error {
	if id == a.s.APIKeyID {
		return Errorf(CodeConflict, "The Default key cannot be revoked: rotate it instead")
	}
	i := slices.IndexFunc(a.s.Keys, func(k apiKey) bool { return k.ID == id })
	if i < 0 {
		return ErrAPIKeyNotFound
	}
	a.record(APIKeyRevoked{KeyID: id}, now)
	return nil
}

// ExpireAPIKeys records APIKeyExpired for every key that stopped working by
// now (its expiry came, or its rotation's grace ended).
func (a *Account) ExpireAPIKeys(now time.Time) error {
	for _, k := range slices.Clone(a.s.Keys) {
		switch {
		case k.RetiresAt != nil && !now.Before(*k.RetiresAt):
			a.record(APIKeyExpired{KeyID: k.ID, Reason: KeyExpiredReasonGrace}, now)
		case k.ExpiresAt != nil && !now.Before(*k.ExpiresAt):
			a.record(APIKeyExpired{KeyID: k.ID, Reason: KeyExpiredReasonExpiry}, now)
		}
	}
	return nil
}

// applyKey changes s by a key event; false for any other event.
func (s *state) applyKey(e Event, at time.Time) bool {
	switch e := e.(type) {
	case APIKeyIssued:
		s.APIKeyID, s.APIKeyHash, s.APIKeyPrefix = e.KeyID, e.Hash, e.Prefix
	case APIKeyCreated:
		s.Keys = append(s.Keys, apiKey{ID: e.KeyID, Name: e.Name, Prefix: e.Prefix, Mode: e.Mode, Hash: e.Hash,
			CreatedAt: at, ExpiresAt: e.ExpiresAt})
	case APIKeyRotated:
		old := apiKey{ID: e.PreviousKeyID, Name: DefaultKeyName, Prefix: s.APIKeyPrefix, Mode: KeyModeLive, Hash: s.APIKeyHash}
		if e.Secondary {
			i := slices.IndexFunc(s.Keys, func(k apiKey) bool { return k.ID == e.PreviousKeyID })
			if i >= 0 {
				old = s.Keys[i]
				s.Keys = slices.Delete(s.Keys, i, i+1)
			}
			s.Keys = append(s.Keys, apiKey{ID: e.KeyID, Name: e.Name, Prefix: e.Prefix, Mode: e.Mode, Hash: e.Hash,
				CreatedAt: at, ExpiresAt: e.ExpiresAt})
		} else {
			s.APIKeyID, s.APIKeyHash, s.APIKeyPrefix = e.KeyID, e.Hash, e.Prefix
		}
		if e.PreviousRetiresAt != nil {
			old.RetiresAt = timePtr(*e.PreviousRetiresAt)
			s.Keys = append(s.Keys, old)
		}
	case APIKeyRevoked:
		s.dropKey(e.KeyID)
	case APIKeyExpired:
		s.dropKey(e.KeyID)
	default:
		return false
	}
	return true
}

func (s *state) dropKey(id string) {
	s.Keys = slices.DeleteFunc(s.Keys, func(k apiKey) bool { return k.ID == id })
}
