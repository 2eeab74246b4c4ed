package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/eventstore"
	"github.com/google/uuid"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/vero"
)

// VeroCheck is a paid question: is a brand on the VeRO protected-brand
// list?
type VeroCheck struct {
	Spend
	Brand string
}

// VeroCheckResult is VeroCheck's answer (Metered.Body), the desktop API's
// JSON as it is kept for a retry.
type VeroCheckResult struct {
	ID               string `json:"id"`
	Brand            string `json:"brand"`
	Protected        bool   `json:"protected"`
	CreditsRemaining int64  `json:"creditsRemaining"`
}

// VeroCheckHandler charges a credit for a VeRO check.
type VeroCheckHandler struct {
	spender
}

// Handle charges 1 credit and answers whether the brand, cleaned of extra
// spaces, is protected; the list is read in the command's transaction.
func (h VeroCheckHandler) Handle(ctx context.Context, cmd VeroCheck) (Metered, error) {
	id, brand := uuid.NewString(), vero.Clean(cmd.Brand)
	return h.spend(ctx, cmd.Spend, func(ctx context.Context, q eventstore.Querier, a *domain.Account, now time.Time) (any, error) {
		protected, err := vero.IsProtected(ctx, q, brand)
		if err != nil {
			return nil, err
		}
		if err := a.PerformVeroCheck(id, brand, protected, now); err != nil {
			return nil, err
		}
		return VeroCheckResult{ID: id, Brand: brand, Protected: protected, CreditsRemaining: a.Balance(now)}, nil
	})
}
