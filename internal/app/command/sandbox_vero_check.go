package command

import (
	"context"

	"github.com/a2e-automation/app/internal/sandbox"
	"github.com/a2e-automation/app/internal/vero"
)

// SandboxVeroCheck is a test-mode VeRO check: the real list's answer for
// Brand, paid with a test credit.
type SandboxVeroCheck struct {
	AccountID      string
	APIKeyHash     string
	IdempotencyKey string
	RequestHash    string // as Spend's: the same key with another request is refused
	Brand          string
}

// SandboxVeroCheckHandler spends a test credit from the account's sandbox,
// never its balance, for a VeRO check.
type SandboxVeroCheckHandler struct {
	sandbox *sandbox.Store
}

// Handle answers whether the brand, cleaned as the live check cleans it,
// is protected; an Idempotency-Key used again with the same request answers
// the first check.
func (h SandboxVeroCheckHandler) Handle(ctx context.Context, cmd SandboxVeroCheck) (sandbox.VeroCheck, bool, error) {
	return h.sandbox.VeroCheck(ctx, cmd.AccountID, cmd.APIKeyHash, cmd.IdempotencyKey, cmd.RequestHash, vero.Clean(cmd.Brand))
}
