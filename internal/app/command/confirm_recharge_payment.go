package command

import (
	"context"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/accounts"
)

// ConfirmRechargePayment is a seller opening the payment of a recharge that
// needs their authentication (3-D Secure), from the link the mail gave
// (POST /api/account/auto-recharge/confirmation).
type ConfirmRechargePayment struct {
	AccountID string
}

// RechargePayment is what the payment page confirms: the PaymentIntent's
// client secret (asked of the provider, never stored) and what it buys.
type RechargePayment struct {
	ClientSecret string `json:"clientSecret"`
	Credits      int64  `json:"credits"`
	AmountCents  int64  `json:"amountCents"`
}

// ErrNoRechargeToConfirm answers when no recharge waits for the seller.
var ErrNoRechargeToConfirm = domain.Errorf(domain.CodeNotFound, "No recharge is waiting for your confirmation")

// ConfirmRechargePaymentHandler reads the waiting recharge and asks the
// provider for its client secret; the payment is then confirmed on the
// page (Stripe Elements, or the simulated form) and reported like any
// pack's, which ends the wait.
type ConfirmRechargePaymentHandler struct {
	accounts *accounts.Repository
	payments Recharger
}

// Handle answers the waiting recharge's payment, or ErrNoRechargeToConfirm.
func (h ConfirmRechargePaymentHandler) Handle(ctx context.Context, cmd ConfirmRechargePayment) (RechargePayment, error) {
	a, err := h.accounts.FromSnapshot(ctx, cmd.AccountID)
	if err != nil {
		return RechargePayment{}, err
	}
	v := a.AutoRecharge(h.accounts.Now())
	if v.AwaitingAction == "" || v.AwaitingPayment == "" {
		return RechargePayment{}, ErrNoRechargeToConfirm
	}
	secret, err := h.payments.RechargeClientSecret(ctx, cmd.AccountID, v.AwaitingAction, v.AwaitingPayment)
	if err != nil {
		return RechargePayment{}, err
	}
	return RechargePayment{ClientSecret: secret, Credits: v.PackCredits, AmountCents: v.PackAmountCents}, nil
}
