package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/a2e-automation/app/internal/apikeys"
	"github.com/a2e-automation/app/internal/auth"
)

// apiKeyHeader carries the desktop client's API key.
const apiKeyHeader = "X-API-Key"

// apiAccountKey holds the account id withAPIKey found.
type apiAccountKey struct{}

// withDesktopLimit counts every /v1 request that carries an X-API-Key
// against that key's rate limit, d.Config.RateLimitPerMinute requests per
// minute (GCRA), before anything else is looked at, so every answer to a
// keyed request (a 400 for a bad header, 404, 405 and 401 included) carries
// X-RateLimit-Limit, -Remaining and -Reset; past the limit, 429 with
// Retry-After. Buckets are keyed by the SHA-256 of the key as presented:
// unknown keys fill their own bucket, never an account's, and the key itself
// is neither kept nor logged. The OpenAPI document is not counted.
//
// The counts are shared by every API process when REDIS_URL is set; if
// Redis cannot answer, the request goes through (fail open, see limits).
func withDesktopLimit(d Deps) func(http.Handler) http.Handler {
	limit := desktopLimitOf(d.Config)
	tooMany := fmt.Sprintf("Rate limit exceeded: %d requests per minute", limit.Rate)
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			key := r.Header.Get(apiKeyHeader)
			if key == "" || r.URL.Path == openAPIPath {
				next.ServeHTTP(w, r)
				return
			}
			if !d.Limits.allow(w, r, d, apikeys.Hash(key), limit, true, true, tooMany, "") {
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// withAPIKey admits the desktop client's requests (withDesktopLimit has
// counted them): no X-API-Key header is 401 api_key_missing, counted against
// no bucket (there is none to count against); a key of the wrong shape, or
// one that is no account's current key (for example a rotated one), is 401
// api_key_invalid.
func withAPIKey(d Deps) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			noStore(w)
			key := r.Header.Get(apiKeyHeader)
			if key == "" {
				writeError(w, r, d.Log, errCoded(http.StatusUnauthorized, CodeAPIKeyMissing, "Missing X-API-Key header"))
				return
			}
			if !apikeys.LooksValid(key) {
				writeError(w, r, d.Log, errCoded(http.StatusUnauthorized, CodeAPIKeyInvalid, "Invalid API key"))
				return
			}
			id, err := d.Auth.AccountForAPIKey(r.Context(), apikeys.Hash(key))
			if errors.Is(err, auth.ErrUnknownAPIKey) {
				writeError(w, r, d.Log, errCoded(http.StatusUnauthorized, CodeAPIKeyInvalid, "Invalid API key"))
				return
			}
			if err != nil {
				writeError(w, r, d.Log, err)
				return
			}
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), apiAccountKey{}, id)))
		})
	}
}

// apiAccount is the account id withAPIKey put in ctx.
func apiAccount(ctx context.Context) string {
	id, _ := ctx.Value(apiAccountKey{}).(string)
	return id
}
