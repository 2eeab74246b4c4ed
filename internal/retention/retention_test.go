package retention_test

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/retention"
	"github.com/a2e-automation/app/internal/testing/accountstest"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

type rig struct {
	pool   *pgxpool.Pool
	repo   *accounts.Repository
	pruner *retention.Pruner
	now    time.Time
}

func newRig(t *testing.T, groups ...string) *rig {
	pool := testdb.New(t)
	r := &rig{pool: pool, repo: accounts.NewRepository(eventstore.New(pool), nil), now: time.Now()}
	r.pruner = retention.New(pool, slog.New(slog.NewTextHandler(io.Discard, nil)),
		retention.Options{IdempotencyKeyTTL: 24 * time.Hour, ConsumerGroups: groups})
	r.pruner.Now = func() time.Time { return r.now }
	return r
}

// keyed runs a command on id with an idempotency key.
func (r *rig) keyed(t *testing.T, id, key string) {
	t.Helper()
	_, err := r.repo.Update(context.Background(), id, eventstore.UpdateOptions{IdempotencyKey: key, RequestHash: key},
		func(_ context.Context, _ pgx.Tx, a *domain.Account, now time.Time) (any, error) {
			return map[string]string{"ok": key}, a.GrantCredits(domain.CreditsGranted{Amount: 1, Source: domain.SourcePromo}, now)
		})
	if err != nil {
		t.Fatal(err)
	}
}

func (r *rig) count(t *testing.T, sql string, args ...any) int {
	t.Helper()
	var n int
	if err := r.pool.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestIdempotencyKeysArePrunedByAge(t *testing.T) {
	r := newRig(t)
	id := accountstest.Register(t, r.repo)
	for _, k := range []string{"desktop:old", "desktop:new", "stripe:evt_old", "stripe:evt_recent", "staff-adjustment:old", "staff-adjustment:new"} {
		r.keyed(t, id, k)
	}
	exec := func(sql string, args ...any) {
		if _, err := r.pool.Exec(context.Background(), sql, args...); err != nil {
			t.Fatal(err)
		}
	}
	exec(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE idempotency_key IN ('desktop:old', 'stripe:evt_recent', 'staff-adjustment:old')`)
	exec(`UPDATE idempotency_keys SET created_at = now() - interval '31 days' WHERE idempotency_key = 'stripe:evt_old'`)
	if ran, err := r.pruner.PruneOnce(context.Background()); err != nil || !ran {
		t.Fatalf("PruneOnce = %v, %v", ran, err)
	}
	rows, err := r.pool.Query(context.Background(), `SELECT idempotency_key FROM idempotency_keys ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(kept, []string{"desktop:new", "staff-adjustment:new", "stripe:evt_recent"}) {
		t.Fatalf("kept %v", kept)
	}
}

// Delivered outbox rows go once every consumer group has passed them, and
// not before; one process prunes at a time.
func TestDeliveredOutboxRowsArePrunedOncePassedByEveryGroup(t *testing.T) {
	r := newRig(t, "projection_a", "projection_b")
	ctx := context.Background()
	for range 6 {
		accountstest.Register(t, r.repo) // one outbox row each: one per transaction
	}
	const messages, offsets = "watermill_account_events", "watermill_offsets_account_events"
	if _, err := r.pool.Exec(ctx, `CREATE TABLE IF NOT EXISTS `+offsets+` (consumer_group VARCHAR(255) NOT NULL,
		offset_acked BIGINT, last_processed_transaction_id xid8 NOT NULL, PRIMARY KEY (consumer_group))`); err != nil {
		t.Fatal(err)
	}
	ack := func(group string, nth int) { // group has acknowledged the nth row in delivery order
		t.Helper()
		if _, err := r.pool.Exec(ctx, `INSERT INTO `+offsets+` (consumer_group, offset_acked, last_processed_transaction_id)
			SELECT $1, "offset", transaction_id FROM `+messages+` ORDER BY transaction_id, "offset" OFFSET $2 LIMIT 1
			ON CONFLICT (consumer_group) DO UPDATE SET offset_acked = excluded.offset_acked,
				last_processed_transaction_id = excluded.last_processed_transaction_id`, group, nth-1); err != nil {
			t.Fatal(err)
		}
	}
	total := r.count(t, `SELECT count(*) FROM `+messages)
	if total != 6 {
		t.Fatalf("%d outbox rows", total)
	}
	ack("projection_a", 6)
	if ran, err := r.pruner.PruneOnce(ctx); err != nil || !ran {
		t.Fatalf("PruneOnce = %v, %v", ran, err)
	}
	if n := r.count(t, `SELECT count(*) FROM `+messages); n != 6 {
		t.Fatalf("pruned with one group never acknowledged: %d left", n)
	}
	ack("projection_b", 4)
	// Another process holds the lock: this one skips its pass.
	conn, err := r.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(7301116)`); err != nil {
		t.Fatal(err)
	}
	if ran, err := r.pruner.PruneOnce(ctx); ran || err != nil {
		t.Fatalf("pruned beside a pass holding the lock: %v, %v", ran, err)
	}
	_, _ = conn.Exec(ctx, `SELECT pg_advisory_unlock(7301116)`)
	conn.Release()
	if ran, err := r.pruner.PruneOnce(ctx); err != nil || !ran {
		t.Fatalf("PruneOnce = %v, %v", ran, err)
	}
	if n := r.count(t, `SELECT count(*) FROM `+messages); n != 2 {
		t.Fatalf("%d rows left; want the 2 that projection_b has not passed", n)
	}
	if got := testutil.ToFloat64(r.pruner.Removed().WithLabelValues("outbox_delivered")); got != 4 {
		t.Fatalf("retention_pruned_rows_total{outbox_delivered} = %v", got)
	}
}

// Handled reset requests go after a day and final mails after a week; the
// ones still waiting or within their time stay.
func TestResetRequestsAndFinalMailsArePrunedByAge(t *testing.T) {
	r := newRig(t)
	ctx := context.Background()
	exec := func(sql string) {
		t.Helper()
		if _, err := r.pool.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	exec(`INSERT INTO password_reset_requests (email, requested_at, outcome, handled_at) VALUES
		('old@example.com', now() - interval '25 hours', 'mailed', now() - interval '25 hours'),
		('waiting@example.com', now() - interval '25 hours', NULL, NULL),
		('new@example.com', now() - interval '1 hour', 'limited', now())`)
	exec(`INSERT INTO mail_outbox (kind, recipient, subject, body, status, next_attempt_at, created_at, expires_at) VALUES
		('reset', 'old-sent@example.com', 's', '', 'sent', now(), now() - interval '8 days', now()),
		('reset', 'old-pending@example.com', 's', 'b', 'pending', now(), now() - interval '8 days', now() + interval '1 day'),
		('reset', 'new-failed@example.com', 's', '', 'failed', now(), now() - interval '1 day', now())`)
	if ran, err := r.pruner.PruneOnce(ctx); err != nil || !ran {
		t.Fatalf("PruneOnce = %v, %v", ran, err)
	}
	if n := r.count(t, `SELECT count(*) FROM password_reset_requests WHERE email IN ('waiting@example.com', 'new@example.com')`); n != 2 ||
		r.count(t, `SELECT count(*) FROM password_reset_requests`) != 2 {
		t.Fatal("reset requests: the handled one older than a day should go, the others stay")
	}
	if n := r.count(t, `SELECT count(*) FROM mail_outbox WHERE recipient IN ('old-pending@example.com', 'new-failed@example.com')`); n != 2 ||
		r.count(t, `SELECT count(*) FROM mail_outbox`) != 2 {
		t.Fatal("mail outbox: the sent mail older than a week should go, the others stay")
	}
	exec(`INSERT INTO webhook_endpoints (id, account_id, url, events, secret, created_at)
		VALUES ('we_r', gen_random_uuid(), 'https://h.example', '{credits.granted}', 's', now())`)
	exec(`INSERT INTO webhook_deliveries (endpoint_id, account_id, event_id, event_type, position, body, status, next_attempt_at, created_at, last_attempt_at)
		SELECT 'we_r', account_id, x.ev, 'credits.granted', x.pos, '{}', x.status, now(), now() - x.age, now() - x.age
		FROM webhook_endpoints, (VALUES ('evt_old', 1, 'delivered', interval '31 days'), ('evt_waiting', 2, 'pending', interval '31 days'),
			('evt_new', 3, 'failed', interval '1 day')) AS x (ev, pos, status, age) WHERE id = 'we_r'`)
	if ran, err := r.pruner.PruneOnce(ctx); err != nil || !ran {
		t.Fatalf("PruneOnce = %v, %v", ran, err)
	}
	if n := r.count(t, `SELECT count(*) FROM webhook_deliveries WHERE event_id IN ('evt_waiting', 'evt_new')`); n != 2 ||
		r.count(t, `SELECT count(*) FROM webhook_deliveries`) != 2 {
		t.Fatal("webhook deliveries: the delivered one older than 30 days should go, the others stay")
	}
	for table, want := range map[string]float64{"password_reset_requests": 1, "mail_outbox_final": 1, "webhook_deliveries_final": 1} {
		if got := testutil.ToFloat64(r.pruner.Removed().WithLabelValues(table)); got != want {
			t.Errorf("retention_pruned_rows_total{%s} = %v", table, got)
		}
	}
}
