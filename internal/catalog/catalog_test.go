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
		{100, 999, true}, {500, 3999, true}, {1000, 6999, true}, {5, 50, true}, {6, 60, true}, {250, 2500, true},
		{MaxCustomCredits, MaxCustomCredits * 10, true}, {0, 0, false}, {-5, 0, false}, {MaxCustomCredits + 1, 0, false},
		{1, 0, false}, {4, 0, false},
	} {
		got, err := PriceCents(tc.credits)
		if (err == nil) != tc.ok || got != tc.cents {
			t.Errorf("PriceCents(%d) = %d, %v; want %d ok=%v", tc.credits, got, err, tc.cents, tc.ok)
		}
		want := InvalidAmount
		if tc.credits > 0 && tc.credits < MinCustomCredits {
			want = "The minimum purchase is 5 credits ($0.50)."
		}
		if err != nil && (domain.ErrorCode(err) != domain.CodeInvalid || domain.ErrorMessage(err) != want) {
			t.Errorf("PriceCents(%d) error = %v, want %q", tc.credits, err, want)
		}
	}
	if MinCustomCredits*CustomCreditPriceCents < StripeMinimumChargeCents || (MinCustomCredits-1)*CustomCreditPriceCents >= StripeMinimumChargeCents {
		t.Errorf("MinCustomCredits = %d is not the fewest credits Stripe charges for", MinCustomCredits)
	}
	if c := Get(); c.MinCustomCredits != 5 || c.MinCustomPriceCents != 50 {
		t.Errorf("catalogue minCustomCredits = %d, minCustomPriceCents = %d", c.MinCustomCredits, c.MinCustomPriceCents)
	}
	if got, err := PriceCents(MinCustomCredits); err != nil || got != Get().MinCustomPriceCents {
		t.Errorf("PriceCents(MinCustomCredits) = %d, %v; the catalogue says %d", got, err, Get().MinCustomPriceCents)
	}
	if p := MonthlyPlan(); p.PriceCents != 2999 || p.Credits != 500 {
		t.Fatalf("plan = %+v", p)
	}
}

func TestDollars(t *testing.T) {
	for cents, want := range map[int64]string{
		0: "$0.00", 5: "$0.05", 50: "$0.50", 999: "$9.99", 2999: "$29.99", 100: "$1.00", 123456789: "$1234567.89",
		-1: "-$0.01", -150: "-$1.50", 9223372036854775807: "$92233720368547758.07", -9223372036854775808: "-$92233720368547758.08",
	} {
		if got := Dollars(cents); got != want {
			t.Errorf("Dollars(%d) = %q, want %q", cents, got, want)
		}
	}
}

func TestChargesAndDescription(t *testing.T) {
	for _, tc := range []struct {
		credits, cents int64
		currency       string
		want           bool
	}{
		{100, 999, "usd", true}, {250, 2500, "usd", true}, {5, 50, "usd", true},
		{100, 1000, "usd", false}, {100, 999, "eur", false}, {100, 999, "", false},
		{0, 0, "usd", false}, {4, 40, "usd", false}, {-100, -999, "usd", false}, {MaxCustomCredits + 1, (MaxCustomCredits + 1) * 10, "usd", false},
	} {
		if got := Charges(tc.credits, tc.cents, tc.currency); got != tc.want {
			t.Errorf("Charges(%d, %d, %q) = %v, want %v", tc.credits, tc.cents, tc.currency, got, tc.want)
		}
	}
	for credits, want := range map[int64]string{1: "1 credit", 5: "5 credits", 100: "100 credits", 100000: "100000 credits"} {
		if got := CreditsDescription(credits); got != want {
			t.Errorf("CreditsDescription(%d) = %q, want %q", credits, got, want)
		}
	}
}
