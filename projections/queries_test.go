package projections

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/a2e-automation/app/internal/testing/testdb"
)

func TestPeriodStarts(t *testing.T) {
	for now, want := range map[string][3]string{
		"2025-03-12T23:59:59Z":      {"2025-03-12", "2025-03-10", "2025-03-01"}, // Wednesday
		"2025-03-10T00:00:00Z":      {"2025-03-10", "2025-03-10", "2025-03-01"}, // Monday
		"2025-03-16T12:00:00Z":      {"2025-03-16", "2025-03-10", "2025-03-01"}, // Sunday
		"2025-03-02T12:00:00Z":      {"2025-03-02", "2025-02-24", "2025-03-01"}, // the week began last month
		"2025-03-02T01:00:00+02:00": {"2025-03-01", "2025-02-24", "2025-03-01"}, // UTC days
	} {
		at, err := time.Parse(time.RFC3339, now)
		if err != nil {
			t.Fatal(err)
		}
		if d, w, m := periodStarts(at); [3]string{d, w, m} != want {
			t.Errorf("periodStarts(%s) = %s %s %s; want %v", now, d, w, m, want)
		}
	}
}

func TestReader(t *testing.T) {
	ctx := context.Background()
	pool := testdb.New(t)
	r := NewReader(pool)
	id, other := uuid.NewString(), uuid.NewString()

	if _, err := r.Profile(ctx, id); !errors.Is(err, ErrNoProfile) {
		t.Fatalf("missing profile = %v", err)
	}
	renewal := time.Date(2025, 4, 1, 0, 0, 0, 0, time.UTC)
	if _, err := pool.Exec(ctx, `INSERT INTO profiles (account_id, email, is_verified, subscription_status, subscription_renewal_date,
		api_key_encrypted, credits_available, listings_created, vero_checks, registered_at, updated_at)
		VALUES ($1, 'seller@example.com', true, 'active', $2, 'sealed', 480, 12, 3, now(), now())`, id, renewal); err != nil {
		t.Fatal(err)
	}
	p, err := r.Profile(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	want := Profile{AccountID: id, Email: "seller@example.com", IsVerified: true, SubscriptionStatus: "active", APIKeyEncrypted: "sealed",
		CreditsAvailable: 480, ListingsCreated: 12, VeroChecks: 3}
	if p.SubscriptionRenewalDate == nil || !p.SubscriptionRenewalDate.Equal(renewal) {
		t.Fatalf("renewal date %v", p.SubscriptionRenewalDate)
	}
	if p.RegisteredAt.IsZero() || p.UpdatedAt.IsZero() {
		t.Fatalf("registered %v, updated %v", p.RegisteredAt, p.UpdatedAt)
	}
	p.SubscriptionRenewalDate, p.RegisteredAt, p.UpdatedAt = nil, time.Time{}, time.Time{}
	if p != want {
		t.Fatalf("profile = %+v", p)
	}

	now := time.Date(2025, 3, 12, 15, 0, 0, 0, time.UTC) // a Wednesday
	for _, row := range []struct {
		account, day      string
		credits, listings int64
		vero              int64
	}{
		{id, "2025-03-12", 5, 4, 1},   // today
		{id, "2025-03-10", 3, 2, 1},   // Monday, this week
		{id, "2025-03-09", 7, 6, 1},   // last Sunday, this month
		{id, "2025-02-28", 11, 10, 1}, // last month
		{other, "2025-03-12", 100, 100, 100},
	} {
		if _, err := pool.Exec(ctx, `INSERT INTO usage_statistics (account_id, day, credits_used, listings_created, vero_checks)
			VALUES ($1, $2, $3, $4, $5)`, row.account, row.day, row.credits, row.listings, row.vero); err != nil {
			t.Fatal(err)
		}
	}
	u, err := r.Usage(ctx, id, now)
	if err != nil {
		t.Fatal(err)
	}
	wantUsage := Usage{
		Today: UsageCounts{5, 4, 1}, ThisWeek: UsageCounts{8, 6, 2}, ThisMonth: UsageCounts{15, 12, 3}, Total: UsageCounts{26, 22, 4},
	}
	if u != wantUsage {
		t.Fatalf("usage = %+v", u)
	}
	if u, err := r.Usage(ctx, uuid.NewString(), now); err != nil || u != (Usage{}) {
		t.Fatalf("usage of an idle account = %+v, %v", u, err)
	}

	list, err := r.Transactions(ctx, id)
	if err != nil || list == nil || len(list) != 0 {
		t.Fatalf("no transactions = %#v, %v", list, err)
	}
	older, newer := now.Add(-48*time.Hour), now
	if _, err := pool.Exec(ctx, `INSERT INTO transactions (payment_id, account_id, transaction_date, description, amount_cents, status, invoice_url)
		VALUES ('pi_old', $1, $2, 'Monthly Plan', 2999, 'paid', 'https://invoice.example/1'),
		       ('pi_new', $1, $3, '100 credits', 999, 'pending', NULL),
		       ('pi_other', $4, $3, 'Monthly Plan', 2999, 'paid', NULL)`, id, older, newer, other); err != nil {
		t.Fatal(err)
	}
	list, err = r.Transactions(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || list[0].ID != "pi_new" || list[0].InvoiceURL != "" || list[1].ID != "pi_old" ||
		list[1].InvoiceURL != "https://invoice.example/1" || list[1].AmountCents != 2999 || !list[1].Date.Equal(older) {
		t.Fatalf("transactions = %+v", list)
	}
}

// A staff search's brief and a seller's profile show the status by the one
// rule, domain.StatusAt.
func TestBriefStatusAt(t *testing.T) {
	ends := time.Date(2025, 3, 10, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		status string
		endsAt *time.Time
		now    time.Time
		want   string
	}{
		{"cancelling", &ends, ends.Add(-time.Second), "cancelling"},
		{"cancelling", &ends, ends, "cancelled"},
		{"cancelling", nil, ends, "cancelled"},
		{"active", nil, ends, "active"},
		{"past_due", nil, ends, "past_due"},
	} {
		b := Brief{SubscriptionStatus: tc.status, SubscriptionEndsAt: tc.endsAt}
		p := Profile{SubscriptionStatus: tc.status, SubscriptionEndsAt: tc.endsAt}
		if got := b.StatusAt(tc.now); got != tc.want || p.StatusAt(tc.now) != got {
			t.Errorf("%s ending %v at %v: brief %q, profile %q, want %q", tc.status, tc.endsAt, tc.now, got, p.StatusAt(tc.now), tc.want)
		}
	}
}
