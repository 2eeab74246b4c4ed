package payments

// What the Stripe adapter answers beside its calls: how its outcomes reach
// the ledger (by webhook, later) and what the browser loads for its
// checkout.

import (
	"context"
	"time"

	"github.com/a2e-automation/app/domain"
)

// BrowserSources implements Provider: what Stripe.js needs (Stripe's
// security guide: the script, its iframes and the API it calls).
func (*Stripe) BrowserSources() BrowserSources {
	return BrowserSources{
		Script:  "https://js.stripe.com https://*.js.stripe.com",
		Frame:   "https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com",
		Connect: "https://api.stripe.com",
		Img:     "https://*.stripe.com",
	}
}

// simulation implements Provider: Stripe's outcomes come from Stripe.
func (*Stripe) simulation() error { return ErrNotSimulated }

// staffRefunded implements Provider: the ledger changes when Stripe's
// charge.refunded arrives; out says the refund was sent.
func (*Stripe) staffRefunded(_ context.Context, _ *Service, _ StaffRefund, _ string, _ int64, out StaffAction) (StaffAction, error) {
	return out, nil
}

// staffCancelled implements Provider: the ledger changes when Stripe's
// customer.subscription event arrives; out says the cancellation was sent.
func (*Stripe) staffCancelled(_ context.Context, _ *Service, _ StaffCancel, _ *domain.Account, _ string, _ time.Time, out StaffAction) (StaffAction, error) {
	return out, nil
}
