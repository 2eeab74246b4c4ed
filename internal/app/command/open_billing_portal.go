package command

import (
	"context"
)

// OpenBillingPortal is a seller's request for where to manage billing
// (update the card, see invoices, cancel or resume).
type OpenBillingPortal struct {
	AccountID string
}

// OpenBillingPortalHandler asks the provider for the portal.
type OpenBillingPortalHandler struct{ payments BillingPortal }

// Handle answers the provider's portal of the seller's customer: a Stripe
// Billing Portal session returning to the subscription page, or the
// simulated provider's page; payments.ErrNoBillingAccount for a seller who
// never started a checkout. What the seller does there comes back as the
// provider's notifications.
func (h OpenBillingPortalHandler) Handle(ctx context.Context, cmd OpenBillingPortal) (string, error) {
	return h.payments.PortalURL(ctx, cmd.AccountID)
}
