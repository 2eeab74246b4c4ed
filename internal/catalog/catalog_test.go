package catalog

import (
	"testing"

	"github.com/a2e-automation/app/domain"
)

func TestPriceCents(t *testing.T) {
	for _, tc := range []struct {
		credits, cents int64
		ok             bool
	}{
		{100, 999, true}, {500, 3999, true}, {1000, 6999, true}, {1, 10, true}, {250, 2500, true},
		{MaxCustomCredits, MaxCustomCredits * 10, true}, {0, 0, false}, {-5, 0, false}, {MaxCustomCredits + 1, 0, false},
	} {
		got, err := PriceCents(tc.credits)
		if (err == nil) != tc.ok || got != tc.cents {
			t.Errorf("PriceCents(%d) = %d, %v; want %d ok=%v", tc.credits, got, err, tc.cents, tc.ok)
		}
		if err != nil && (domain.ErrorCode(err) != domain.CodeInvalid || domain.ErrorMessage(err) != InvalidAmount) {
			t.Errorf("PriceCents(%d) error = %v", tc.credits, err)
		}
	}
	if p := MonthlyPlan(); p.PriceCents != 2999 || p.Credits != 500 {
		t.Fatalf("plan = %+v", p)
	}
}
