package staff

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/auth"
	"github.com/a2e-automation/app/internal/supportrequests"
	"github.com/a2e-automation/app/projections"
)

// Console is what staff routes call.
type Console struct {
	users   *auth.Store            // owner of users
	read    *projections.Reader    // owner of the read tables
	repo    *accounts.Repository   // the events
	support *supportrequests.Store // owner of the support requests
	History *History
}

// NewConsole returns a Console; secret signs history cursors. It reads
// users through auth and the read tables through projections, their owners.
func NewConsole(pool *pgxpool.Pool, repo *accounts.Repository, secret string) *Console {
	return &Console{users: auth.NewStore(pool, secret), read: projections.NewReader(pool), repo: repo,
		support: supportrequests.NewStore(pool), History: NewHistory(repo.Store(), secret)}
}

// AccountSummary is a search hit.
type AccountSummary struct {
	ID                 string     `json:"id"`
	Email              string     `json:"email"`
	IsStaff            bool       `json:"isStaff"`
	CreatedAt          time.Time  `json:"createdAt"`
	CreditsAvailable   int64      `json:"creditsAvailable"`
	SubscriptionStatus string     `json:"subscriptionStatus"`
	CreditDebt         int64      `json:"creditDebt"`         // credits owed after a refund or lost dispute
	SpendingFrozen     bool       `json:"spendingFrozen"`     // a payment dispute is open
	SubscriptionEndsAt *time.Time `json:"subscriptionEndsAt"` // while cancelling, else null
}

// Search finds up to 20 accounts by exact id or by part of the email.
func (c *Console) Search(ctx context.Context, q string) ([]AccountSummary, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return []AccountSummary{}, nil
	}
	hits, err := c.users.FindUsers(ctx, q, 20)
	if err != nil {
		return nil, fmt.Errorf("search accounts: %w", err)
	}
	return c.summarize(ctx, hits)
}

// Summaries are the summaries of accountIDs, by id; an account that does
// not exist is absent.
func (c *Console) Summaries(ctx context.Context, accountIDs []string) (map[string]AccountSummary, error) {
	users, err := c.users.UsersByID(ctx, accountIDs)
	if err != nil {
		return nil, fmt.Errorf("account summaries: %w", err)
	}
	list, err := c.summarize(ctx, users)
	if err != nil {
		return nil, err
	}
	out := make(map[string]AccountSummary, len(list))
	for _, s := range list {
		out[s.ID] = s
	}
	return out, nil
}

// summarize adds to each user its account's balance, subscription, debt
// and frozen state from the read tables.
func (c *Console) summarize(ctx context.Context, hits []auth.UserHit) ([]AccountSummary, error) {
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.AccountID
	}
	briefs, err := c.read.Briefs(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("account summaries: %w", err)
	}
	now := c.repo.Now()
	out := make([]AccountSummary, len(hits))
	for i, h := range hits {
		b, ok := briefs[h.AccountID]
		if !ok {
			b.SubscriptionStatus = domain.StatusInactive // not projected yet
		}
		out[i] = AccountSummary{ID: h.AccountID, Email: h.Email, IsStaff: h.IsStaff, CreatedAt: h.CreatedAt,
			CreditsAvailable: b.CreditsAvailable, SubscriptionStatus: b.StatusAt(now),
			CreditDebt: b.CreditDebt, SpendingFrozen: b.SpendingFrozen}
		if out[i].SubscriptionStatus == domain.StatusCancelling {
			out[i].SubscriptionEndsAt = b.SubscriptionEndsAt
		}
	}
	return out, nil
}

// BalanceReport is an account's balance and grants at a moment.
type BalanceReport struct {
	AsOf    time.Time      `json:"asOf"`
	Balance int64          `json:"balance"`
	Grants  []domain.Grant `json:"grants"`
}

// BalanceAt answers from the events alone what account id held at asOf.
func (c *Console) BalanceAt(ctx context.Context, id string, asOf time.Time) (BalanceReport, error) {
	history, err := c.repo.History(ctx, id)
	if err != nil {
		return BalanceReport{}, err
	}
	if len(history) == 0 {
		return BalanceReport{}, accounts.ErrNotFound
	}
	grants := domain.GrantsAt(history, asOf)
	if grants == nil {
		grants = []domain.Grant{}
	}
	return BalanceReport{AsOf: asOf, Balance: domain.BalanceAt(history, asOf), Grants: grants}, nil
}

// Difference is one field where the read tables and the events disagree.
type Difference struct {
	Field     string `json:"field"`
	Events    any    `json:"events"`
	ReadModel any    `json:"readModel"`
}

// Comparison is the result of replaying an account against its read rows.
type Comparison struct {
	Consistent  bool         `json:"consistent"`
	Differences []Difference `json:"differences"`
	Position    int64        `json:"position"` // the last event replayed
}

// replayed are the read-model facts recomputed from the events alone.
type replayed struct {
	email                               string
	verified                            bool
	status                              string
	credits, used, listings, veroChecks int64
	daily                               [3]int64 // credits used, listings, VeRO checks summed over usage_statistics
	payments                            map[string]string
	debt                                int64
	frozen                              bool
}

// Compare replays account id from its events and reports every difference
// from the read tables (profile, usage totals, transactions).
func (c *Console) Compare(ctx context.Context, id string) (Comparison, error) {
	recs, err := c.repo.Store().ReadStream(ctx, domain.StreamID(id), 0, 0)
	if err != nil {
		return Comparison{}, err
	}
	if len(recs) == 0 {
		return Comparison{}, accounts.ErrNotFound
	}
	history, err := accounts.Decode(recs)
	if err != nil {
		return Comparison{}, err
	}
	a, err := domain.Rehydrate(id, history)
	if err != nil {
		return Comparison{}, err
	}
	want := replayed{email: a.Email(), verified: a.IsVerified(), status: a.SubscriptionStatus(), payments: map[string]string{},
		debt: a.CreditDebt(), frozen: a.SpendingFrozen()}
	// A missing profile row reads as zero values, so every field differs.
	for _, h := range history {
		_, change := Describe(h.Event)
		want.credits += change
		if spent, ok := domain.SpendOf(h.Event); ok { // alone, or carried by a listing or a VeRO check
			want.used += spent.Amount
		}
		switch e := h.Event.(type) {
		case domain.ListingRequested:
			want.listings++
		case domain.VeroCheckPerformed:
			want.veroChecks++
		case domain.PaymentRecorded:
			want.payments[e.PaymentID] = a.PaymentStatus(e.PaymentID)
		}
	}
	got, err := c.readModel(ctx, id)
	if err != nil {
		return Comparison{}, err
	}
	cmp := Comparison{Position: recs[len(recs)-1].GlobalPosition, Differences: []Difference{}}
	check := func(field string, events, read any) {
		if events != read {
			cmp.Differences = append(cmp.Differences, Difference{Field: field, Events: events, ReadModel: read})
		}
	}
	check("email", want.email, got.email)
	check("isVerified", want.verified, got.verified)
	check("subscriptionStatus", want.status, got.status)
	check("creditsAvailable", want.credits, got.credits)
	check("creditsUsed", want.used, got.used)
	check("listingsCreated", want.listings, got.listings)
	check("veroChecks", want.veroChecks, got.veroChecks)
	check("creditDebt", want.debt, got.debt)
	check("spendingFrozen", want.frozen, got.frozen)
	check("usageStatistics.creditsUsed", want.used, got.daily[0])
	check("usageStatistics.listingsCreated", want.listings, got.daily[1])
	check("usageStatistics.veroChecks", want.veroChecks, got.daily[2])
	for _, pid := range slices.Sorted(maps.Keys(want.payments)) {
		check("transaction "+pid, want.payments[pid], got.payments[pid])
	}
	for _, pid := range slices.Sorted(maps.Keys(got.payments)) {
		if _, ok := want.payments[pid]; !ok {
			check("transaction "+pid, "", got.payments[pid])
		}
	}
	cmp.Consistent = len(cmp.Differences) == 0
	return cmp, nil
}

func (c *Console) readModel(ctx context.Context, id string) (replayed, error) {
	rows, err := c.read.AccountRows(ctx, id)
	if err != nil {
		return replayed{}, err
	}
	return replayed{
		email: rows.Email, verified: rows.IsVerified, status: rows.SubscriptionStatus,
		credits: rows.CreditsAvailable, used: rows.CreditsUsed, listings: rows.ListingsCreated, veroChecks: rows.VeroChecks,
		daily:    [3]int64{rows.UsageCreditsUsed, rows.UsageListingsCreated, rows.UsageVeroChecks},
		payments: rows.PaymentStatuses, debt: rows.CreditDebt, frozen: rows.SpendingFrozen,
	}, nil
}
