package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/go-chi/httprate"

	"github.com/a2e-automation/app/internal/apikeys"
	"github.com/a2e-automation/app/internal/auth"
)

// apiKeyHeader carries the desktop client's API key; canonicalAPIKey is
// its name as http.Header keeps it.
const (
	apiKeyHeader    = "X-API-Key"
	canonicalAPIKey = "X-Api-Key"
)

// sentAPIKey is r's X-API-Key, as r.Header.Get(apiKeyHeader), without
// canonicalizing the name, a new string, on each of a call's four reads
// (issue 36).
func sentAPIKey(r *http.Request) string { return headerOf(r.Header, canonicalAPIKey) }

// headerOf is h.Get(name) for a name already canonical.
func headerOf(h http.Header, canonicalName string) string {
	if v := h[canonicalName]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// withDesktopLimit counts every /v1 request that carries an X-API-Key
// against that key's rate limit, d.Config.RateLimitPerMinute requests per
// minute (GCRA), before anything else is looked at, so every answer to a
// keyed request (a 400 for a bad header, 404, 405 and 401 included) carries
// X-RateLimit-Limit, -Remaining and -Reset; past the limit, 429 with
// Retry-After. A key that is, or was, an account's counts against that
// account's bucket, found through d.APIKeys (hash → account: a key seen
// before costs no query), so rotating the key does not start a new bucket
// (issue 31); an unknown key fills a bucket of its own, keyed by its
// SHA-256, never an account's, and the key itself is neither kept nor
// logged. The OpenAPI document is not counted.
//
// The counts are shared by every API process when REDIS_URL is set; if
// Redis cannot answer, the request goes through (fail open, see limits).
func withDesktopLimit(d Deps) func(http.Handler) http.Handler {
	limit := desktopLimitOf(d.Config)
	tooMany := fmt.Sprintf("Rate limit exceeded: %d requests per minute", limit.Rate)
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			key := sentAPIKey(r)
			if key == "" || r.URL.Path == openAPIPath {
				next.ServeHTTP(w, r)
				return
			}
			if !d.Limits.allow(w, r, check{Key: desktopBucket(r.Context(), d, key), Limit: limit, FailOpen: true, Headers: true, TooMany: tooMany}) {
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// desktopBucket is the rate-limit bucket of a request with key: its
// account's ("account:<id>") when the key is, or was, an account's, else
// the key's hash. Should the lookup fail (the database away), the key's
// hash: the request goes on to be answered by admitAPIKey.
func desktopBucket(ctx context.Context, d Deps, key string) string {
	hash := keyHashOf(ctx, key)
	if !apikeys.LooksValid(key) {
		return hash
	}
	if id, err := rememberedAccount(ctx, d, hash); err == nil {
		return "account:" + id
	}
	return hash
}

// keyHashOf is apikeys.Hash(key), kept in the request's scope: the rate
// limit (desktopBucket) and admitAPIKey both need the hash of the same
// header, so a metered call hashes it once (issue 36).
func keyHashOf(ctx context.Context, key string) string {
	s := scopeOf(ctx)
	if s != nil && s.keyHash != "" && s.key == key {
		return s.keyHash
	}
	hash := apikeys.Hash(key)
	if s != nil {
		s.key, s.keyHash = key, hash
	}
	return hash
}

// rememberedAccount is d.APIKeys' account for hash, the answer kept in
// the request's scope: desktopBucket asks first, withRememberedAPIKey
// again for the same key in the same request, so a metered call looks
// its key up once (issue 36). Only a found account is kept; an error is
// asked again.
func rememberedAccount(ctx context.Context, d Deps, hash string) (string, error) {
	s := scopeOf(ctx)
	if s != nil && s.rememberedHash != "" && s.rememberedHash == hash {
		return s.rememberedAccount, nil
	}
	id, _, err := d.APIKeys.Account(ctx, hash)
	if err == nil && s != nil {
		s.rememberedHash, s.rememberedAccount = hash, id
	}
	return id, err
}

// withAPIKey admits the desktop client's free reads (withDesktopLimit has
// counted them): no X-API-Key header is 401 api_key_missing, counted
// against no bucket (there is none to count against); a key of the wrong
// shape, or one that is no account's current key (for example a rotated
// one), is 401 api_key_invalid. The key is looked up in api_keys, which
// holds only current keys.
func withAPIKey(d Deps) func(http.Handler) http.Handler {
	return admitAPIKey(d, func(ctx context.Context, hash string) (string, error) {
		id, err := d.Auth.AccountForAPIKey(ctx, hash)
		if err == nil && d.APIKeys != nil {
			d.APIKeys.Touch(hash) // a working key (api_keys said so): its "last used"
		}
		return id, err
	})
}

// withRememberedAPIKey admits the metered calls as withAPIKey does, but
// through d.APIKeys: a key seen before costs no query. Whether it is still
// the account's current key is decided by the command itself, on the
// locked account (command.Spend's APIKeyHash), so a rotated key is refused
// on its next call by every process, cached or not.
func withRememberedAPIKey(d Deps) func(http.Handler) http.Handler {
	return admitAPIKey(d, func(ctx context.Context, hash string) (string, error) {
		return rememberedAccount(ctx, d, hash)
	})
}

// admitAPIKey is withAPIKey with lookup finding the key's account.
func admitAPIKey(d Deps, lookup func(ctx context.Context, keyHash string) (string, error)) func(http.Handler) http.Handler {
	// Only a refused key needs the client's address (its failures are
	// counted by IP), so an admitted call does not pay for finding it: one
	// context value and request copy fewer per call (issue 36).
	refuse := clientIP(d)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { refuseAPIKey(w, r, d) }))
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			noStore(w)
			key := sentAPIKey(r)
			if key == "" {
				writeError(w, r, d.Log, errCoded(http.StatusUnauthorized, CodeAPIKeyMissing, "Missing X-API-Key header"))
				return
			}
			if !apikeys.LooksValid(key) {
				refuse.ServeHTTP(w, r)
				return
			}
			hash := keyHashOf(r.Context(), key)
			id, err := lookup(r.Context(), hash)
			if errors.Is(err, auth.ErrUnknownAPIKey) {
				refuse.ServeHTTP(w, r)
				return
			}
			if err != nil {
				writeError(w, r, d.Log, err)
				return
			}
			c := apiCaller{accountID: id, keyHash: hash}
			if s := scopeOf(r.Context()); s != nil {
				s.caller = c // the request's scope: no copy of the request (issue 36)
				next.ServeHTTP(w, r)
				return
			}
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), scopeKey{}, &requestScope{caller: c})))
		})
	}
}

// refuseAPIKey answers a key that is no account's current one: 401
// api_key_invalid, counted against the client's IP (TRUSTED_PROXIES'
// X-Forwarded-For or the peer); past limitAPIKeyFailures, 429 rate_limited
// with Retry-After instead, so made-up keys from one address are stopped
// (issue 31). Shared through Redis with REDIS_URL; fails open like the
// rest of the desktop API's limits.
func refuseAPIKey(w http.ResponseWriter, r *http.Request, d Deps) {
	ip := httprate.CanonicalizeIP(middleware.GetClientIP(r.Context()))
	if !d.Limits.allow(w, r, check{Key: ip, Limit: limitAPIKeyFailures, FailOpen: true, TooMany: msgTooManyKeyFailures}) {
		return
	}
	writeError(w, r, d.Log, errCoded(http.StatusUnauthorized, CodeAPIKeyInvalid, "Invalid API key"))
}

// apiCaller is an admitted desktop call's account and key hash, kept in
// the request's scope.
type apiCaller struct{ accountID, keyHash string }

// apiAccount is the account id admitAPIKey admitted.
func apiAccount(ctx context.Context) string {
	if s := scopeOf(ctx); s != nil {
		return s.caller.accountID
	}
	return ""
}

// apiKeyHash is the hash of the key admitAPIKey admitted.
func apiKeyHash(ctx context.Context) string {
	if s := scopeOf(ctx); s != nil {
		return s.caller.keyHash
	}
	return ""
}
