package auth

import (
	"context"
	"fmt"
	"sync"
	"time"

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
//
// It also gathers when each key was last used (Touch) and writes that to
// api_keys in one statement per interval (RunUsedFlusher), never inside a
// request: the API Keys page's "last used" may lag by that interval.
type KeyCache struct {
	store   *Store
	entries *lru.Cache[string, string]

	// used maps a key hash to its last use not yet written (time.Time).
	// A sync.Map: each admitted call stores into it, and for keys already
	// in it (the steady state) that is an atomic swap, no shared lock.
	used sync.Map
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

// Touch records that the key with hash keyHash was just used, in memory.
// A use within touchResolution of the one already gathered is not stored
// again: a key in steady use costs a lock-free read, not a swap and a boxed
// time per call (issue 36), and "last used" is at most that much earlier
// than the last call.
func (c *KeyCache) Touch(keyHash string) {
	now := time.Now()
	if v, ok := c.used.Load(keyHash); ok && now.Sub(v.(time.Time)) < touchResolution {
		return
	}
	c.used.Store(keyHash, now)
}

// touchResolution is how far apart two uses of a key must be for Touch to
// gather the later one.
const touchResolution = time.Second

// FlushUsed writes the uses Touch gathered to api_keys.last_used_at (one
// statement, a later use never overwritten by an earlier one). A use is
// forgotten once written, unless a later one came meanwhile; on failure
// all are kept for the next flush.
func (c *KeyCache) FlushUsed(ctx context.Context) error {
	var hashes []string
	var times []time.Time
	c.used.Range(func(k, v any) bool {
		hashes, times = append(hashes, k.(string)), append(times, v.(time.Time))
		return true
	})
	if len(hashes) == 0 {
		return nil
	}
	_, err := c.store.pool.Exec(ctx, `UPDATE api_keys k SET last_used_at = greatest(k.last_used_at, u.at)
		FROM unnest($1::text[], $2::timestamptz[]) AS u(hash, at) WHERE k.key_hash = u.hash`, hashes, times)
	if err != nil {
		return fmt.Errorf("api keys last used: %w", err)
	}
	for i, h := range hashes {
		c.used.CompareAndDelete(h, times[i])
	}
	return nil
}

// RunUsedFlusher runs FlushUsed every interval until ctx ends, then once
// more (bounded by 5 s) so a stopping process keeps what it gathered.
func (c *KeyCache) RunUsedFlusher(ctx context.Context, interval time.Duration, logError func(error)) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			final, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			if err := c.FlushUsed(final); err != nil {
				logError(err)
			}
			return
		case <-t.C:
			fctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			if err := c.FlushUsed(fctx); err != nil && ctx.Err() == nil {
				logError(err)
			}
			cancel()
		}
	}
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
