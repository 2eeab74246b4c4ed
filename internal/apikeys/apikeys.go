// Package apikeys makes the desktop client's API keys: a random key with a
// short visible prefix, a SHA-256 hash to look it up, and an AES-256-GCM
// encryption of it so the dashboard can show it again. The plain key is
// never stored and never put in an event.
package apikeys

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/a2e-automation/app/domain"
)

// Prefix starts every key; the visible prefix is the key's prefix (Prefix
// or TestPrefix) plus a few characters.
const Prefix = "a2e_"

// TestPrefix starts every test-mode key (issue 34).
const TestPrefix = "a2e_test_"

// visibleExtra is how many characters past its prefix a key shows.
const visibleExtra = 6

// secretLen is the length of a key past its prefix.
const secretLen = 32

// Keys generates, hashes, encrypts and decrypts API keys.
type Keys struct {
	aead cipher.AEAD
}

// New derives the encryption key from secret (APP_SECRET).
func New(secret string) (*Keys, error) { return NewSealer("a2e api key encryption", secret) }

// NewSealer is Keys whose Encrypt and Decrypt use a key derived from secret
// for purpose alone (such as staff TOTP secrets, internal/auth): one
// AES-256-GCM seal for every secret kept at rest, a key per purpose.
func NewSealer(purpose, secret string) (*Keys, error) {
	if secret == "" {
		return nil, errors.New("apikeys: empty secret")
	}
	k := sha256.Sum256([]byte(purpose + "\x00" + secret))
	block, err := aes.NewCipher(k[:])
	if err != nil {
		return nil, fmt.Errorf("apikeys: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("apikeys: %w", err)
	}
	return &Keys{aead: aead}, nil
}

// Generate returns a new live key and the material the domain records for it.
func (k *Keys) Generate() (string, domain.APIKeyMaterial, error) {
	return k.GenerateMode(domain.KeyModeLive)
}

// GenerateMode is Generate for a key of mode (domain.KeyModeLive, or
// domain.KeyModeTest for an a2e_test_ key).
func (k *Keys) GenerateMode(mode string) (string, domain.APIKeyMaterial, error) {
	raw := make([]byte, 24)
	if _, err := rand.Read(raw); err != nil {
		return "", domain.APIKeyMaterial{}, fmt.Errorf("apikeys: %w", err)
	}
	id := make([]byte, 8)
	if _, err := rand.Read(id); err != nil {
		return "", domain.APIKeyMaterial{}, fmt.Errorf("apikeys: %w", err)
	}
	prefix := Prefix
	if mode == domain.KeyModeTest {
		prefix = TestPrefix
	}
	plain := prefix + base64.RawURLEncoding.EncodeToString(raw)
	enc, err := k.Encrypt(plain)
	if err != nil {
		return "", domain.APIKeyMaterial{}, err
	}
	return plain, domain.APIKeyMaterial{
		KeyID:     hex.EncodeToString(id),
		Prefix:    plain[:len(prefix)+visibleExtra],
		Hash:      Hash(plain),
		Encrypted: enc,
	}, nil
}

// Hash is the lookup hash of a key. Keys are long and random, so a plain
// SHA-256 is enough (no password hashing needed).
func Hash(plain string) string {
	h := sha256.Sum256([]byte(plain))
	return hex.EncodeToString(h[:])
}

// LooksValid reports whether s has the shape of a key, live or test, to
// refuse junk early.
func LooksValid(s string) bool {
	if strings.HasPrefix(s, TestPrefix) && len(s) == len(TestPrefix)+secretLen {
		return true
	}
	return strings.HasPrefix(s, Prefix) && len(s) == len(Prefix)+secretLen
}

// IsTest reports whether s is a test-mode key by its prefix.
func IsTest(s string) bool {
	return strings.HasPrefix(s, TestPrefix) && len(s) == len(TestPrefix)+secretLen
}

// Encrypt seals plain with a random nonce.
func (k *Keys) Encrypt(plain string) (string, error) {
	nonce := make([]byte, k.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("apikeys: %w", err)
	}
	return base64.RawStdEncoding.EncodeToString(k.aead.Seal(nonce, nonce, []byte(plain), nil)), nil
}

// Decrypt opens what Encrypt sealed.
func (k *Keys) Decrypt(enc string) (string, error) {
	b, err := base64.RawStdEncoding.DecodeString(enc)
	if err != nil || len(b) < k.aead.NonceSize() {
		return "", errors.New("apikeys: malformed ciphertext")
	}
	plain, err := k.aead.Open(nil, b[:k.aead.NonceSize()], b[k.aead.NonceSize():], nil)
	if err != nil {
		return "", errors.New("apikeys: cannot decrypt (wrong APP_SECRET?)")
	}
	return string(plain), nil
}
