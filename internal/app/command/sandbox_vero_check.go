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
	Brand          string
}

// SandboxVeroCheckHandler spends a test credit from the account's sandbox,
// never its balance, for a VeRO check.
type SandboxVeroCheckHandler struct {
	sandbox *sandbox.Store
}

// Handle answers whether the brand, cleaned as the live check cleans it,
// is protected; a replayed Idempotency-Key answers the first check.
func (h SandboxVeroCheckHandler) Handle(ctx context.Context, cmd SandboxVeroCheck) (sandbox.VeroCheck, bool, error) {
	return h.sandbox.VeroCheck(ctx, cmd.AccountID, cmd.APIKeyHash, cmd.IdempotencyKey, vero.Clean(cmd.Brand))
}
