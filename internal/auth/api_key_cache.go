package auth

import (
	"context"

	lru "github.com/hashicorp/golang-lru/v2"
)

// KeyCache remembers which account an API key belongs to, by the key's
// hash, so the desktop client's metered calls pay no query to be admitted.
//
// A hash always belongs to the same account (a key is 32 random bytes and
// never reissued); what changes is only whether it is still the account's
// current key. The cache does not decide that: a metered command checks the
// presented hash against the account's own state inside its decision
// (domain.Account.RequireAPIKey), on the locked stream, so a key rotated
// through any process is refused by every process on its next call. An
// entry found stale that way is forgotten. Unknown keys are never cached:
// each costs one lookup (and is rate limited before it).
type KeyCache struct {
	store   *Store
	entries *lru.Cache[string, string]
}

// DefaultKeyCacheSize bounds a KeyCache: one entry (~150 bytes) per key in
// use, so 100,000 active sellers fit in ~15 MB.
const DefaultKeyCacheSize = 100_000

// NewKeyCache returns a cache of up to size entries over store's api_keys.
func NewKeyCache(store *Store, size int) *KeyCache {
	if size <= 0 {
		size = DefaultKeyCacheSize
	}
	entries, err := lru.New[string, string](size)
	if err != nil {
		panic(err) // only for size <= 0, excluded above
	}
	return &KeyCache{store: store, entries: entries}
}

// Account returns the account keyHash belongs to. current is true when the
// answer was just read from api_keys, which holds only current keys; false
// when it came from memory, and then the caller must check the key against
// the account's state (RequireAPIKey) before it acts. ErrUnknownAPIKey: no
// account's current key.
func (c *KeyCache) Account(ctx context.Context, keyHash string) (id string, current bool, err error) {
	if id, ok := c.entries.Get(keyHash); ok {
		return id, false, nil
	}
	id, err = c.store.AccountForAPIKey(ctx, keyHash)
	if err != nil {
		return "", false, err
	}
	c.entries.Add(keyHash, id)
	return id, true, nil
}

// Forget drops keyHash, found no longer current.
func (c *KeyCache) Forget(keyHash string) { c.entries.Remove(keyHash) }

// Remembers reports whether keyHash is in the cache.
func (c *KeyCache) Remembers(keyHash string) bool { return c.entries.Contains(keyHash) }
