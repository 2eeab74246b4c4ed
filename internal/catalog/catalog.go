// Package catalog is the single source of prices: the monthly plan and the
// credit packages (spec section 9). Amounts are integer cents everywhere.
package catalog

import (
	"fmt"

	"github.com/a2e-automation/app/domain"
)

// Plan is the subscription plan.
type Plan struct {
	ID         string   `json:"id"`
	Name       string   `json:"name"`
	PriceCents int64    `json:"priceCents"`
	Credits    int64    `json:"credits"`
	Interval   string   `json:"interval"`
	Features   []string `json:"features"`
}

// Package is a credit pack.
type Package struct {
	Credits    int64 `json:"credits"`
	PriceCents int64 `json:"priceCents"`
}

// Currency of every price in the catalogue.
const Currency = "usd"

// Custom amounts are priced per credit, from the fewest credits Stripe can
// charge for (its minimum charge is $0.50) up to a sane maximum.
const (
	CustomCreditPriceCents   = 10
	StripeMinimumChargeCents = 50
	MinCustomCredits         = (StripeMinimumChargeCents + CustomCreditPriceCents - 1) / CustomCreditPriceCents
	MaxCustomCredits         = 100_000
)

// Catalog is what GET /api/plans serves.
type Catalog struct {
	Plan                   Plan      `json:"plan"`
	Packages               []Package `json:"packages"`
	CustomCreditPriceCents int64     `json:"customCreditPriceCents"`
	MinCustomCredits       int64     `json:"minCustomCredits"`
	MinCustomPriceCents    int64     `json:"minCustomPriceCents"` // the price of MinCustomCredits, for the webapp's minimum message
	MaxCustomCredits       int64     `json:"maxCustomCredits"`
}

// MonthlyPlan is the one plan: $29.99 a month with 500 credits per cycle.
func MonthlyPlan() Plan {
	return Plan{
		ID: "monthly", Name: "Monthly Plan", PriceCents: 2999, Credits: domain.MonthlyCredits, Interval: "month",
		Features: []string{
			"500 credits per month", "Full software access", "API access", "Priority email support", "Regular updates",
		},
	}
}

// Packages are the credit packs on sale.
func Packages() []Package {
	return []Package{{Credits: 100, PriceCents: 999}, {Credits: 500, PriceCents: 3999}, {Credits: 1000, PriceCents: 6999}}
}

// Get returns the whole catalogue.
func Get() Catalog {
	return Catalog{Plan: MonthlyPlan(), Packages: Packages(), CustomCreditPriceCents: CustomCreditPriceCents,
		MinCustomCredits: MinCustomCredits, MinCustomPriceCents: minCustomPriceCents, MaxCustomCredits: MaxCustomCredits}
}

// InvalidAmount is the spec's message for a credit amount that is not a
// positive whole number within bounds.
const InvalidAmount = "Please select a valid credit amount."

// minCustomPriceCents is what MinCustomCredits cost: $0.50.
const minCustomPriceCents = MinCustomCredits * CustomCreditPriceCents

// MinimumPurchase is the message for a positive amount below
// MinCustomCredits: "The minimum purchase is 5 credits ($0.50)."
func MinimumPurchase() string {
	return fmt.Sprintf("The minimum purchase is %d credits (%s).", MinCustomCredits, Dollars(minCustomPriceCents))
}

// Dollars is how every text shows an amount of cents: "$29.99", "$0.50",
// "$1234.00"; a negative amount is "-$1.50".
func Dollars(cents int64) string {
	sign := ""
	u := uint64(cents)
	if cents < 0 {
		sign, u = "-", uint64(-(cents+1))+1 // no overflow at math.MinInt64
	}
	return fmt.Sprintf("%s$%d.%02d", sign, u/100, u%100)
}

// PriceCents prices credits: a package's price when the count is a
// package's, else CustomCreditPriceCents each. Fewer than MinCustomCredits
// are refused with MinimumPurchase: Stripe would refuse to charge them.
func PriceCents(credits int64) (int64, error) {
	if credits <= 0 || credits > MaxCustomCredits {
		return 0, domain.Errorf(domain.CodeInvalid, InvalidAmount)
	}
	if credits < MinCustomCredits {
		return 0, domain.Errorf(domain.CodeInvalid, "%s", MinimumPurchase())
	}
	for _, p := range Packages() {
		if p.Credits == credits {
			return p.PriceCents, nil
		}
	}
	return credits * CustomCreditPriceCents, nil
}

// Charges reports whether a payment of amountCents in currency is exactly
// the catalogue's price of credits: the check a provider's report of a
// credit purchase passes before anything is granted.
func Charges(credits, amountCents int64, currency string) bool {
	price, err := PriceCents(credits)
	return err == nil && amountCents == price && currency == Currency
}

// CreditsDescription is the text of a purchase of credits on the
// provider's receipt and in the transactions list: "1 credit", "100 credits".
func CreditsDescription(credits int64) string {
	if credits == 1 {
		return "1 credit"
	}
	return fmt.Sprintf("%d credits", credits)
}
