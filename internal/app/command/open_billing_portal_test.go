package command

import (
	"context"
	"errors"
	"testing"

	"github.com/a2e-automation/app/internal/payments"
)

// The portal is refused to a seller with no billing account yet, and is
// the simulated provider's page once a checkout made the customer.
func TestOpenBillingPortal(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	r := e.verified("portal@example.com")
	if _, err := e.cmd.OpenBillingPortal.Handle(ctx, OpenBillingPortal{AccountID: r.AccountID}); !errors.Is(err, payments.ErrNoBillingAccount) {
		t.Fatalf("before a checkout: err = %v", err)
	}
	if _, err := e.cmd.PurchaseCredits.Handle(ctx, PurchaseCredits{AccountID: r.AccountID, Credits: 100}); err != nil {
		t.Fatal(err)
	}
	url, err := e.cmd.OpenBillingPortal.Handle(ctx, OpenBillingPortal{AccountID: r.AccountID})
	if err != nil || url != "http://localhost:8080"+payments.SimulatedPortalPath {
		t.Fatalf("portal = %q, %v", url, err)
	}
}
