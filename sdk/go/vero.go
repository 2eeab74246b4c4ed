package a2e

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/a2e-automation/app/sdk/go/internal/api"
)

// VeroCheck is the outcome of a check of a brand against the VeRO
// protected-brand list.
type VeroCheck struct {
	ID string `json:"id"`
	// Brand is the brand as asked, trimmed and with inner whitespace collapsed.
	Brand string `json:"brand"`
	// Protected: the brand is on the VeRO protected-brand list.
	Protected bool `json:"protected"`
	// CreditsRemaining is the balance just after the check's charge.
	CreditsRemaining int64 `json:"creditsRemaining"`
	// IdempotencyKey is the key the check sent.
	IdempotencyKey string `json:"-"`
	// Mode is "test" for a test-mode key (the check was paid with a test
	// credit), "" for a live one.
	Mode string `json:"mode,omitempty"`
	// RateLimit is the key's rate limit after this call; nil if not told.
	RateLimit *RateLimit `json:"-"`
}

// CreateVeroCheckParams is what VeroChecksService.Create sends.
type CreateVeroCheckParams struct {
	// Brand is the brand to check, 1 to 100 characters once trimmed (required).
	Brand string
	// IdempotencyKey names this operation, at most 255 characters; empty:
	// Create makes a random one. Reuse it to resume the same operation.
	IdempotencyKey string
}

// VeroChecksService is the client's VeRO check calls (Client.VeroChecks).
type VeroChecksService struct{ c *Client }

// Create checks a brand against the VeRO list, charging 1 credit (POST
// /v1/vero-checks). Every attempt sends the same Idempotency-Key and body,
// so retries are never charged twice. There is no read-back of a check: a
// commit_outcome_unknown that outlasts the retries is an error with
// OutcomeUnknown set, and sending the same key again within the server's
// replay window (24 hours) answers the first outcome or runs the check once.
func (s *VeroChecksService) Create(ctx context.Context, p CreateVeroCheckParams) (*VeroCheck, error) {
	key := p.IdempotencyKey
	if key == "" {
		key = newIdempotencyKey()
	}
	body, _ := json.Marshal(api.VeroCheckRequest{Brand: p.Brand}) // a string field: it cannot fail
	var v api.VeroCheck
	limit, err := s.c.send(ctx, request{method: http.MethodPost, path: "/v1/vero-checks", body: body, idempotencyKey: key},
		&v, s.c.maxRetries)
	if err != nil {
		return nil, err
	}
	return &VeroCheck{ID: v.ID, Brand: v.Brand, Protected: v.Protected, CreditsRemaining: v.CreditsRemaining,
		IdempotencyKey: key, Mode: modeOf(v.Mode), RateLimit: limit}, nil
}
