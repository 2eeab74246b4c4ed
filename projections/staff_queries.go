package projections

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
)

// AccountRows is everything the read tables hold of one account, for the
// staff console's comparison with a replay of its events.
type AccountRows struct {
	HasProfile                                                 bool
	Email                                                      string
	IsVerified                                                 bool
	SubscriptionStatus                                         string
	CreditsAvailable, CreditsUsed, ListingsCreated, VeroChecks int64
	UsageCreditsUsed, UsageListingsCreated, UsageVeroChecks    int64             // summed over usage_statistics
	PaymentStatuses                                            map[string]string // transactions: payment id → status
	CreditDebt                                                 int64
	SpendingFrozen                                             bool
}

// AccountRows reads accountID's rows of every read table.
func (r *Reader) AccountRows(ctx context.Context, accountID string) (AccountRows, error) {
	got := AccountRows{PaymentStatuses: map[string]string{}}
	err := r.pool.QueryRow(ctx, `SELECT email, is_verified, subscription_status, credits_available, credits_used, listings_created, vero_checks,
			credit_debt, open_disputes > 0
		FROM profiles WHERE account_id = $1`, accountID).
		Scan(&got.Email, &got.IsVerified, &got.SubscriptionStatus, &got.CreditsAvailable, &got.CreditsUsed, &got.ListingsCreated, &got.VeroChecks,
			&got.CreditDebt, &got.SpendingFrozen)
	switch {
	case err == nil:
		got.HasProfile = true
	case !errors.Is(err, pgx.ErrNoRows):
		return AccountRows{}, fmt.Errorf("read profile: %w", err)
	}
	if err := r.pool.QueryRow(ctx, `SELECT coalesce(sum(credits_used), 0)::bigint, coalesce(sum(listings_created), 0)::bigint,
			coalesce(sum(vero_checks), 0)::bigint FROM usage_statistics WHERE account_id = $1`, accountID).
		Scan(&got.UsageCreditsUsed, &got.UsageListingsCreated, &got.UsageVeroChecks); err != nil {
		return AccountRows{}, fmt.Errorf("read usage: %w", err)
	}
	rows, err := r.pool.Query(ctx, `SELECT payment_id, status FROM transactions WHERE account_id = $1`, accountID)
	if err != nil {
		return AccountRows{}, fmt.Errorf("read transactions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var pid, status string
		if err := rows.Scan(&pid, &status); err != nil {
			return AccountRows{}, fmt.Errorf("read transactions: %w", err)
		}
		got.PaymentStatuses[pid] = status
	}
	return got, rows.Err()
}

// Brief is an account's balance and subscription status as the dashboard
// shows them.
type Brief struct {
	CreditsAvailable   int64
	SubscriptionStatus string
	CreditDebt         int64
	SpendingFrozen     bool
	SubscriptionEndsAt *time.Time // while cancelling
}

// StatusAt is the subscription status at now (domain.StatusAt), as
// Profile.StatusAt: a cancelling subscription whose end has passed is
// cancelled.
func (b Brief) StatusAt(now time.Time) string {
	return domain.StatusAt(b.SubscriptionStatus, b.SubscriptionEndsAt, now)
}

// Briefs reads the profiles of accountIDs; an account without one (not yet
// projected) is absent from the answer.
func (r *Reader) Briefs(ctx context.Context, accountIDs []string) (map[string]Brief, error) {
	rows, err := r.pool.Query(ctx, `SELECT account_id::text, credits_available, subscription_status, credit_debt, open_disputes > 0,
			subscription_ends_at
		FROM profiles WHERE account_id::text = ANY($1)`, accountIDs)
	if err != nil {
		return nil, fmt.Errorf("read profiles: %w", err)
	}
	defer rows.Close()
	out := make(map[string]Brief, len(accountIDs))
	for rows.Next() {
		var id string
		var b Brief
		if err := rows.Scan(&id, &b.CreditsAvailable, &b.SubscriptionStatus, &b.CreditDebt, &b.SpendingFrozen, &b.SubscriptionEndsAt); err != nil {
			return nil, fmt.Errorf("read profiles: %w", err)
		}
		out[id] = b
	}
	return out, rows.Err()
}
