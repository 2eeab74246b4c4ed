package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/app/query"
)

// Issue 34, item 1: the account's named API keys.
//   GET    /api/api-keys                → [apiKeyResponse]
//   POST   /api/api-keys {name, mode?, expiresAt?} → 201 apiKeyResponse with apiKey
//   DELETE /api/api-keys/{id}           → 204
//   POST   /api/api-keys/{id}/rotate {graceSeconds} → 200 apiKeyResponse (the new key) with apiKey

// apiKeyResponse is one key. APIKey is the key itself; GraceEndsAt is set
// on a key a rotation replaced, which works until then.
type apiKeyResponse struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	Prefix      string  `json:"prefix"`
	Mode        string  `json:"mode"`
	IsDefault   bool    `json:"isDefault"`
	CreatedAt   string  `json:"createdAt"`
	LastUsedAt  *string `json:"lastUsedAt"`
	ExpiresAt   *string `json:"expiresAt"`
	GraceEndsAt *string `json:"graceEndsAt"`
	APIKey      string  `json:"apiKey,omitempty"`
}

func apiKeyOf(k query.APIKey) apiKeyResponse {
	return apiKeyResponse{ID: k.ID, Name: k.Name, Prefix: k.Prefix, Mode: k.Mode, IsDefault: k.Primary,
		CreatedAt: k.CreatedAt.UTC().Format(time.RFC3339), LastUsedAt: rfc3339(k.LastUsedAt), ExpiresAt: rfc3339(k.ExpiresAt),
		GraceEndsAt: rfc3339(k.RetiresAt), APIKey: k.Key}
}

// createAPIKeyBody is POST /api/api-keys.
type createAPIKeyBody struct {
	Name      string  `json:"name"`
	Mode      *string `json:"mode"`
	ExpiresAt *string `json:"expiresAt"` // RFC 3339, in the future
	expires   *time.Time
}

func (b *createAPIKeyBody) mode() string {
	if b.Mode == nil {
		return domain.KeyModeLive
	}
	return *b.Mode
}

// Valid implements validator.
func (b *createAPIKeyBody) Valid(context.Context) map[string]string {
	problems := map[string]string{}
	if name, err := domain.CheckAPIKeyName(b.Name); err != nil {
		problems["name"] = domain.ErrorMessage(err)
	} else {
		b.Name = name
	}
	switch b.mode() {
	case domain.KeyModeLive, domain.KeyModeTest:
	default:
		problems["mode"] = `mode must be "live" or "test"`
	}
	if b.ExpiresAt != nil {
		t, err := time.Parse(time.RFC3339, *b.ExpiresAt)
		switch {
		case err != nil:
			problems["expiresAt"] = "expiresAt must be an RFC 3339 date-time, such as 2026-12-31T23:59:59Z"
		case !t.After(time.Now()):
			problems["expiresAt"] = "expiresAt must be in the future"
		default:
			b.expires = &t
		}
	}
	return problems
}

// rotateAPIKeyBody is POST /api/api-keys/{id}/rotate.
type rotateAPIKeyBody struct {
	GraceSeconds *int64 `json:"graceSeconds"`
}

var maxGraceSeconds = int64(domain.MaxRotationGrace / time.Second)

// Valid implements validator.
func (b *rotateAPIKeyBody) Valid(context.Context) map[string]string {
	if b.GraceSeconds == nil {
		return map[string]string{"graceSeconds": "graceSeconds is required (0 stops the old key at once)"}
	}
	if g := *b.GraceSeconds; g < 0 || g > maxGraceSeconds {
		return map[string]string{"graceSeconds": fmt.Sprintf("graceSeconds must be between 0 and %d", maxGraceSeconds)}
	}
	return nil
}

// handleListAPIKeys answers the signed-in account's working keys.
func handleListAPIKeys(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		keys, err := d.App.Queries.APIKeys.Handle(r.Context(), currentSession(r.Context()).AccountID)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		out := make([]apiKeyResponse, 0, len(keys))
		for _, k := range keys {
			out = append(out, apiKeyOf(k))
		}
		encode(w, http.StatusOK, out)
	}
}

// keyChange admits a change to the signed-in account's keys under
// limitKeyChanges (failing open: a seller whose key leaked must be able
// to act while Redis is away) and returns the account id, or "" when it
// answered.
func keyChange(w http.ResponseWriter, r *http.Request, d Deps) string {
	id := currentSession(r.Context()).AccountID
	if !d.Limits.allow(w, r, check{Key: id, Limit: limitKeyChanges, FailOpen: true, TooMany: msgTooManyRotations}) {
		return ""
	}
	return id
}

// handleCreateAPIKey makes a named key: 201 with the key, shown in full.
func handleCreateAPIKey(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, err := decode[createAPIKeyBody](r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		id := keyChange(w, r, d)
		if id == "" {
			return
		}
		made, err := d.App.Commands.CreateAPIKey.Handle(r.Context(), command.CreateAPIKey{AccountID: id, Name: body.Name,
			Mode: body.mode(), ExpiresAt: body.expires, Metadata: metadata(r, "account:"+id)})
		if errors.Is(err, domain.ErrTooManyAPIKeys) || errors.Is(err, domain.ErrTooManyTestKeys) {
			err = invalid(map[string]string{"name": domain.ErrorMessage(err)})
		}
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusCreated, keyAnswer(made.Key, made.APIKey, time.Now()))
	}
}

// keyAnswer is the answer with a key just made.
func keyAnswer(k domain.APIKey, plain string, now time.Time) apiKeyResponse {
	return apiKeyResponse{ID: k.ID, Name: k.Name, Prefix: k.Prefix, Mode: k.Mode, IsDefault: k.Primary,
		CreatedAt: now.UTC().Format(time.RFC3339), ExpiresAt: rfc3339(k.ExpiresAt), APIKey: plain}
}

// handleRotateAPIKey replaces key {id}; the old one works for graceSeconds.
func handleRotateAPIKey(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, err := decode[rotateAPIKeyBody](r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		id := keyChange(w, r, d)
		if id == "" {
			return
		}
		rotated, err := d.App.Commands.RotateAPIKey.Handle(r.Context(), command.RotateAPIKey{AccountID: id,
			KeyID: chi.URLParam(r, "id"), Grace: time.Duration(*body.GraceSeconds) * time.Second, Metadata: metadata(r, "account:"+id)})
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		awaitProjections(d, r, rotated.Result.LastPosition) // the profile's apiKey, when it was the Default key
		encode(w, http.StatusOK, keyAnswer(rotated.Key, rotated.APIKey, time.Now()))
	}
}

// handleRevokeAPIKey stops key {id} at once: 204.
func handleRevokeAPIKey(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := keyChange(w, r, d)
		if id == "" {
			return
		}
		_, err := d.App.Commands.RevokeAPIKey.Handle(r.Context(), command.RevokeAPIKey{AccountID: id,
			KeyID: chi.URLParam(r, "id"), Metadata: metadata(r, "account:"+id)})
		if errors.Is(err, domain.ErrAPIKeyNotFound) {
			err = errCoded(http.StatusNotFound, CodeNotFound, "API key not found")
		}
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		noStore(w)
		w.WriteHeader(http.StatusNoContent)
	}
}

// sandboxResponse is GET and POST /api/sandbox(/reset): the test credits
// test-mode keys spend (issue 34, item 2).
type sandboxResponse struct {
	Credits int64 `json:"credits"`
}

// handleGetSandbox answers the signed-in account's test credits.
func handleGetSandbox(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		credits, err := d.App.Queries.Sandbox.Credits(r.Context(), currentSession(r.Context()).AccountID)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, sandboxResponse{Credits: credits})
	}
}

// handleResetSandbox sets the test credits back to 1,000.
func handleResetSandbox(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := keyChange(w, r, d)
		if id == "" {
			return
		}
		if err := d.App.Commands.ResetSandbox.Handle(r.Context(), command.ResetSandbox{AccountID: id}); err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		handleGetSandbox(d)(w, r)
	}
}
