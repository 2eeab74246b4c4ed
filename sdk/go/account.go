package a2e

import (
	"context"
	"net/http"
	"time"

	"github.com/a2e-automation/app/sdk/go/internal/api"
)

// Account is the account's credits, by source, and its standing.
type Account struct {
	Email              string `json:"email"`
	CreditsAvailable   int64  `json:"creditsAvailable"`
	SubscriptionStatus string `json:"subscriptionStatus"`
	// SpendingFrozen: a payment dispute is open; creates fail with ErrSpendingFrozen.
	SpendingFrozen bool `json:"spendingFrozen"`
	// CreditDebt is the credits owed; the next grant repays them first.
	CreditDebt int64 `json:"creditDebt"`
	// MonthlyCredits are the subscription's credits left, which expire at
	// MonthlyCreditsExpireAt (nil when there are none).
	MonthlyCredits         int64      `json:"monthlyCredits"`
	MonthlyCreditsExpireAt *time.Time `json:"monthlyCreditsExpireAt"`
	// PurchasedCredits are bought credit packs' credits left; they never expire.
	PurchasedCredits int64 `json:"purchasedCredits"`
	// OtherCredits are promotional and support-granted credits left.
	// MonthlyCredits + PurchasedCredits + OtherCredits = CreditsAvailable.
	OtherCredits int64 `json:"otherCredits"`
	// Mode is "test" for a test-mode key (its figures are the sandbox's
	// test credits), "" for a live one.
	Mode string `json:"mode,omitempty"`
	// RateLimit is the key's rate limit after this call; nil if not told.
	RateLimit *RateLimit `json:"-"`
}

// AccountService is the client's account calls (Client.Account).
type AccountService struct{ c *Client }

// Retrieve reads the account of the client's API key (free).
func (s *AccountService) Retrieve(ctx context.Context) (*Account, error) {
	var a api.Account
	limit, err := s.c.send(ctx, request{method: http.MethodGet, path: "/v1/account"}, &a, s.c.maxRetries)
	if err != nil {
		return nil, err
	}
	return &Account{Email: a.Email, CreditsAvailable: a.CreditsAvailable, SubscriptionStatus: string(a.SubscriptionStatus),
		SpendingFrozen: a.SpendingFrozen, CreditDebt: a.CreditDebt, MonthlyCredits: a.MonthlyCredits,
		MonthlyCreditsExpireAt: a.MonthlyCreditsExpireAt, PurchasedCredits: a.PurchasedCredits, OtherCredits: a.OtherCredits,
		Mode: modeOf(a.Mode), RateLimit: limit}, nil
}

// modeOf is an answer's mode ("test"), "" when it names none (live).
func modeOf[M ~string](m *M) string {
	if m == nil {
		return ""
	}
	return string(*m)
}
