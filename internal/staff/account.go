package staff

import (
	"context"
	"fmt"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/accounts"
)

// ErrOwnAccount refuses a staff member acting on their own account: an
// adjustment, a refund, a cancellation (issue 26: a staff member granted
// themselves 1,000,000 credits). Answered 403 with code staff_own_account.
var ErrOwnAccount = domain.Errorf(domain.CodeForbidden,
	"Staff cannot change their own account: ask another staff member to do it.")

// RefuseOwnAccount is the one check every staff action on an account makes
// before it changes anything: staffID (an account id, or an event actor
// "staff:<id>") may not act on accountID, their own.
func RefuseOwnAccount(staffID, accountID string) error {
	if len(staffID) > 6 && staffID[:6] == "staff:" {
		staffID = staffID[6:]
	}
	if staffID == accountID {
		return ErrOwnAccount
	}
	return nil
}

// AccountView is one account as the console's account page shows it,
// from its events: profile, subscription, credits, debt, frozen state and
// payments.
type AccountView struct {
	ID               string        `json:"id"`
	Email            string        `json:"email"`
	IsVerified       bool          `json:"isVerified"`
	IsStaff          bool          `json:"isStaff"`
	CreatedAt        time.Time     `json:"createdAt"`
	Subscription     Subscription  `json:"subscription"`
	CreditsAvailable int64         `json:"creditsAvailable"`
	CreditDebt       int64         `json:"creditDebt"`
	SpendingFrozen   bool          `json:"spendingFrozen"`
	Payments         []PaymentView `json:"payments"`
	// Settings are the seller's spend limits, alerts and auto-recharge,
	// with their history (account_settings.go).
	Settings SettingsView `json:"settings"`
}

// Subscription is an account's subscription as staff see it.
type Subscription struct {
	Status    string     `json:"status"`
	ID        string     `json:"id"`        // the provider's subscription id; "" when none
	PeriodEnd *time.Time `json:"periodEnd"` // end of the paid cycle, when there is one
	EndsAt    *time.Time `json:"endsAt"`    // while cancelling: when it ends
}

// PaymentView is one payment of the account and how much of it can still
// be refunded: the amount not refunded yet of a paid (or needs-review)
// payment, none of a pending, failed, disputed or charged-back one.
type PaymentView struct {
	ID                string    `json:"id"`
	Kind              string    `json:"kind"` // subscription or credits
	Description       string    `json:"description"`
	At                time.Time `json:"at"` // when it was first recorded
	AmountCents       int64     `json:"amountCents"`
	Credits           int64     `json:"credits"`
	Status            string    `json:"status"`
	RefundedCents     int64     `json:"refundedCents"`
	RefundableCents   int64     `json:"refundableCents"`
	RefundableCredits int64     `json:"refundableCredits"` // the credits a refund of RefundableCents takes back
}

// Account returns account id as the account page shows it; an unknown
// account is accounts.ErrNotFound.
func (c *Console) Account(ctx context.Context, id string) (AccountView, error) {
	history, err := c.repo.History(ctx, id)
	if err != nil {
		return AccountView{}, err
	}
	if len(history) == 0 {
		return AccountView{}, accounts.ErrNotFound
	}
	a, err := domain.Rehydrate(id, history)
	if err != nil {
		return AccountView{}, fmt.Errorf("account %s: %w", id, err)
	}
	now := c.repo.Now()
	v := AccountView{ID: id, Email: a.Email(), IsVerified: a.IsVerified(), CreatedAt: history[0].At,
		Subscription:     Subscription{Status: a.SubscriptionStatusAt(now), ID: a.SubscriptionID(), PeriodEnd: a.PeriodEnd(), EndsAt: a.SubscriptionEndsAt()},
		CreditsAvailable: a.Balance(now), CreditDebt: a.CreditDebt(), SpendingFrozen: a.SpendingFrozen(), Payments: []PaymentView{},
		Settings: settingsOf(a, history, now)}
	if v.IsStaff, err = c.users.IsStaff(ctx, id); err != nil {
		return AccountView{}, err
	}
	seen := map[string]bool{}
	for _, h := range history {
		p, ok := h.Event.(domain.PaymentRecorded)
		if !ok || seen[p.PaymentID] {
			continue
		}
		seen[p.PaymentID] = true
		v.Payments = append(v.Payments, paymentView(a, p, h.At))
	}
	return v, nil
}

// paymentView is payment p of a now, with what can still be refunded.
func paymentView(a *domain.Account, p domain.PaymentRecorded, at time.Time) PaymentView {
	v := PaymentView{ID: p.PaymentID, Kind: p.Kind, Description: p.Description, At: at, AmountCents: p.AmountCents,
		Credits: p.Credits, Status: a.PaymentStatus(p.PaymentID), RefundedCents: a.RefundedCents(p.PaymentID)}
	if paid, ok := a.Paid(p.PaymentID); ok {
		v.RefundableCents, v.RefundableCredits = paid.RefundableCents(), paid.RefundableCredits()
	}
	return v
}
