package query

import (
	"context"

	"github.com/a2e-automation/app/internal/supportrequests"
)

// SellerSupportReader lists a seller's own support requests
// (supportrequests.Store).
type SellerSupportReader interface {
	OfAccount(ctx context.Context, accountID string) ([]supportrequests.Thread, error)
}

// SupportRequestsHandler reads the seller's support page.
type SupportRequestsHandler struct{ support SellerSupportReader }

// Handle is accountID's latest requests, newest first, each with its replies.
func (h SupportRequestsHandler) Handle(ctx context.Context, accountID string) ([]supportrequests.Thread, error) {
	return h.support.OfAccount(ctx, accountID)
}
