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

// withAPIKey admits the desktop client's requests, in this order:
//
//  1. No X-API-Key header: 401, counted against no bucket (there is none to
//     count against).
//  2. The rate limit, d.Config.RateLimitPerMinute requests per minute per
//     key (a sliding window), keyed by the SHA-256 of the key as presented:
//     unknown keys fill their own bucket, never an account's, and the key
//     itself is neither kept nor logged. Every answer from here on carries
//     X-RateLimit-Limit, -Remaining and -Reset; past the limit, 429 with
//     Retry-After.
//  3. A key of the wrong shape, or one that is no account's current key
//     (for example a rotated one): 401.
//
// The counts are shared by every API process when REDIS_URL is set; if
// Redis cannot answer, the request goes through (fail open, see limits).
func withAPIKey(d Deps) func(http.Handler) http.Handler {
	limit := desktopLimitOf(d.Config)
	tooMany := fmt.Sprintf("Rate limit exceeded: %d requests per minute", limit.Rate)
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			key := r.Header.Get(apiKeyHeader)
			if key == "" {
				writeError(w, r, d.Log, errStatus(http.StatusUnauthorized, "Missing X-API-Key header"))
				return
			}
			hash := apikeys.Hash(key)
			if !d.Limits.allow(w, r, d, hash, limit, true, true, tooMany) {
				return
			}
			if !apikeys.LooksValid(key) {
				writeError(w, r, d.Log, errStatus(http.StatusUnauthorized, "Invalid API key"))
				return
			}
			id, err := d.Auth.AccountForAPIKey(r.Context(), hash)
			if errors.Is(err, auth.ErrUnknownAPIKey) {
				writeError(w, r, d.Log, errStatus(http.StatusUnauthorized, "Invalid API key"))
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
