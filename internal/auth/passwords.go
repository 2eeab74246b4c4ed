package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime"
	"strings"

	"golang.org/x/crypto/argon2"
)

// The cost of a new password hash: argon2id with OWASP's recommended
// minimum (19 MiB of memory, 2 passes, 1 lane). A stored hash carries its
// own parameters, so raising these later keeps old hashes checkable.
const (
	argonMemory  = 19 * 1024 // KiB
	argonTime    = 2
	argonThreads = 1
	argonKeyLen  = 32
	argonSaltLen = 16
)

// errMalformedHash is returned for a stored hash this package did not write.
var errMalformedHash = errors.New("auth: malformed password hash")

// hasher hashes and checks passwords with argon2id. Each hash holds
// argonMemory while it runs, so a semaphore bounds how many run at once and
// with it the memory a burst of sign-ins can take.
type hasher struct {
	slots chan struct{}
	dummy string // the hash of a random password, checked for unknown accounts
}

func newHasher() *hasher {
	h := &hasher{slots: make(chan struct{}, 2*runtime.GOMAXPROCS(0))}
	h.dummy = encodeHash(argonMemory, argonTime, argonThreads, newSalt(), rand.Text())
	return h
}

func newSalt() []byte {
	salt := make([]byte, argonSaltLen)
	_, _ = rand.Read(salt) // never fails (crypto/rand)
	return salt
}

// hash returns password's hash in the PHC string form
// $argon2id$v=19$m=…,t=…,p=…$salt$key.
func (h *hasher) hash(ctx context.Context, password string) (string, error) {
	if err := h.acquire(ctx); err != nil {
		return "", err
	}
	defer h.release()
	return encodeHash(argonMemory, argonTime, argonThreads, newSalt(), password), nil
}

// check reports whether password matches encoded, in constant time.
func (h *hasher) check(ctx context.Context, encoded, password string) (bool, error) {
	m, t, p, salt, key, err := decodeHash(encoded)
	if err != nil {
		return false, err
	}
	if err := h.acquire(ctx); err != nil {
		return false, err
	}
	defer h.release()
	got := argon2.IDKey([]byte(password), salt, t, m, p, uint32(len(key)))
	return subtle.ConstantTimeCompare(got, key) == 1, nil
}

// checkNone spends the time of a check for an account that does not exist,
// so a wrong email answers as slowly as a wrong password.
func (h *hasher) checkNone(ctx context.Context, password string) {
	_, _ = h.check(ctx, h.dummy, password)
}

func (h *hasher) acquire(ctx context.Context) error {
	select {
	case h.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h *hasher) release() { <-h.slots }

func encodeHash(m, t uint32, p uint8, salt []byte, password string) string {
	key := argon2.IDKey([]byte(password), salt, t, m, p, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, m, t, p, b64.EncodeToString(salt), b64.EncodeToString(key))
}

func decodeHash(encoded string) (m, t uint32, p uint8, salt, key []byte, err error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return 0, 0, 0, nil, nil, errMalformedHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return 0, 0, 0, nil, nil, errMalformedHash
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || m == 0 || t == 0 || p == 0 {
		return 0, 0, 0, nil, nil, errMalformedHash
	}
	b64 := base64.RawStdEncoding
	if salt, err = b64.DecodeString(parts[4]); err != nil {
		return 0, 0, 0, nil, nil, errMalformedHash
	}
	if key, err = b64.DecodeString(parts[5]); err != nil || len(key) == 0 {
		return 0, 0, 0, nil, nil, errMalformedHash
	}
	return m, t, p, salt, key, nil
}
