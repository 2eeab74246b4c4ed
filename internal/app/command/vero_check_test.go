package command

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/a2e-automation/app/domain"
)

func TestVeroCheckAnswersFromTheListAndChargesOneCredit(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.register("vero@example.com")
	e.grant(r.AccountID, 2, nil)
	ctx := context.Background()
	check := func(brand string) VeroCheckResult {
		t.Helper()
		m, err := e.cmd.VeroCheck.Handle(ctx, VeroCheck{Spend: e.spend(r, ""), Brand: brand})
		if err != nil {
			t.Fatal(err)
		}
		var v VeroCheckResult
		if err := json.Unmarshal(m.Body, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	if v := check("  NIKE  "); !v.Protected || v.Brand != "NIKE" || v.CreditsRemaining != 1 || v.ID == "" {
		t.Fatalf("a listed brand, spaced: %+v", v)
	}
	if v := check("No Such Brand Anywhere 42"); v.Protected || v.CreditsRemaining != 0 {
		t.Fatalf("an unlisted brand: %+v", v)
	}
	h, err := e.repo.History(ctx, r.AccountID)
	if err != nil {
		t.Fatal(err)
	}
	var checks []domain.VeroCheckPerformed
	for _, rec := range h {
		if c, ok := rec.Event.(domain.VeroCheckPerformed); ok {
			checks = append(checks, c)
		}
	}
	if len(checks) != 2 || checks[0].Brand != "NIKE" || !checks[0].Protected || checks[1].Protected {
		t.Fatalf("VeroCheckPerformed events %+v", checks)
	}
	if ev := e.events(r.AccountID); ev[spends] != 2 {
		t.Fatalf("events %v", ev)
	}
}

func TestVeroCheckRefusals(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.register("vero-broke@example.com")
	ctx := context.Background()
	_, err := e.cmd.VeroCheck.Handle(ctx, VeroCheck{Spend: e.spend(r, ""), Brand: "Nike"})
	wantCode(t, err, domain.CodeInsufficientCredits)
	e.grant(r.AccountID, 1, nil)
	_, err = e.cmd.VeroCheck.Handle(ctx, VeroCheck{Spend: e.spend(r, ""), Brand: "   "})
	wantCode(t, err, domain.CodeInvalid)
	if ev := e.events(r.AccountID); ev[spends] != 0 || ev["VeroCheckPerformed"] != 0 {
		t.Fatalf("refused checks left events %v", ev)
	}
}
