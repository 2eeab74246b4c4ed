package command

import (
	"context"

	"github.com/a2e-automation/app/eventstore"
)

// RemovePaymentMethod is a seller's removal of the saved card (DELETE
// /api/account/payment-method).
type RemovePaymentMethod struct {
	AccountID string
	Metadata  eventstore.Metadata
}

// RemovePaymentMethodHandler detaches the card and records its removal.
type RemovePaymentMethodHandler struct {
	payments Recharger
}

// Handle detaches the card at the provider (no transaction open), then
// records PaymentMethodRemoved, and AutoRechargeDisabled when auto-recharge
// was on, with the row's deletion in one transaction. No card: nothing.
func (h RemovePaymentMethodHandler) Handle(ctx context.Context, cmd RemovePaymentMethod) (eventstore.Result, error) {
	return h.payments.RemoveCard(ctx, cmd.AccountID, cmd.Metadata)
}
