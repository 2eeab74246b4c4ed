package webhooks

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/apikeys"
)

// SecretPrefix starts every signing secret.
const SecretPrefix = "whsec_"

// RolledSecretValidity is how long a rolled secret's predecessor still
// signs deliveries (a second v1).
const RolledSecretValidity = 24 * time.Hour

// Store keeps the endpoints' operational rows and their deliveries. The
// secrets are sealed at rest with APP_SECRET.
type Store struct {
	pool *pgxpool.Pool
	seal *apikeys.Keys
}

// NewStore returns the store on pool; secret is APP_SECRET.
func NewStore(pool *pgxpool.Pool, secret string) (*Store, error) {
	seal, err := apikeys.NewSealer("a2e webhook signing secret", secret)
	if err != nil {
		return nil, err
	}
	return &Store{pool: pool, seal: seal}, nil
}

// NewID returns a new endpoint id, "we_" and 16 random hex-like characters.
func NewID() (string, error) { return random("we_", 12) }

// NewSecret returns a new signing secret, "whsec_" and 32 random bytes.
func NewSecret() (string, error) { return random(SecretPrefix, 32) }

func random(prefix string, n int) (string, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("random: %w", err)
	}
	return prefix + base64.RawURLEncoding.EncodeToString(b), nil
}

// Execer is the transaction that records the endpoint's event.
type Execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// Endpoint is an endpoint as its seller sees it, secret included.
type Endpoint struct {
	ID           string
	URL          string
	Events       []string
	Secret       string
	Status       string // enabled or disabled
	FailingSince *time.Time
	CreatedAt    time.Time
}

// Insert writes endpoint e of accountID with its secret, through tx.
func (s *Store) Insert(ctx context.Context, tx Execer, accountID string, e Endpoint, now time.Time) error {
	sealed, err := s.seal.Encrypt(e.Secret)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO webhook_endpoints (id, account_id, url, events, secret, created_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, e.ID, accountID, e.URL, e.Events, sealed, now); err != nil {
		return fmt.Errorf("insert webhook endpoint: %w", err)
	}
	return nil
}

// Roll makes secret endpoint id's signing secret, through tx; the one it
// replaces signs too for RolledSecretValidity.
func (s *Store) Roll(ctx context.Context, tx Execer, accountID, id, secret string, now time.Time) error {
	sealed, err := s.seal.Encrypt(secret)
	if err != nil {
		return err
	}
	tag, err := tx.Exec(ctx, `UPDATE webhook_endpoints SET previous_secret = secret, previous_valid_until = $4, secret = $3
		WHERE id = $1 AND account_id = $2`, id, accountID, sealed, now.Add(RolledSecretValidity))
	if err != nil {
		return fmt.Errorf("roll webhook secret: %w", err)
	}
	if tag.RowsAffected() != 1 {
		return domain.ErrWebhookEndpointNotFound
	}
	return nil
}

// Delete removes endpoint id and its deliveries, through tx.
func (s *Store) Delete(ctx context.Context, tx Execer, accountID, id string) error {
	if _, err := tx.Exec(ctx, `DELETE FROM webhook_endpoints WHERE id = $1 AND account_id = $2`, id, accountID); err != nil {
		return fmt.Errorf("delete webhook endpoint: %w", err)
	}
	return nil
}

// Disable stops deliveries to endpoint id, through tx: the ones waiting
// are marked failed. It returns the endpoint's URL.
func (s *Store) Disable(ctx context.Context, tx pgx.Tx, accountID, id string) (string, error) {
	var url string
	if err := tx.QueryRow(ctx, `UPDATE webhook_endpoints SET status = 'disabled' WHERE id = $1 AND account_id = $2 RETURNING url`,
		id, accountID).Scan(&url); err != nil {
		return "", fmt.Errorf("disable webhook endpoint: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE webhook_deliveries SET status = 'failed', last_error = 'endpoint disabled'
		WHERE endpoint_id = $1 AND status IN ('pending', 'sending')`, id); err != nil {
		return "", fmt.Errorf("fail deliveries of a disabled endpoint: %w", err)
	}
	return url, nil
}

// List returns accountID's endpoints, oldest first, secrets unsealed.
func (s *Store) List(ctx context.Context, accountID string) ([]Endpoint, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, url, events, secret, status, failing_since, created_at
		FROM webhook_endpoints WHERE account_id = $1 ORDER BY created_at, id`, accountID)
	if err != nil {
		return nil, fmt.Errorf("list webhook endpoints: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Endpoint, error) {
		var e Endpoint
		err := r.Scan(&e.ID, &e.URL, &e.Events, &e.Secret, &e.Status, &e.FailingSince, &e.CreatedAt)
		return e, err
	})
	if err != nil {
		return nil, fmt.Errorf("list webhook endpoints: %w", err)
	}
	for i := range out {
		if out[i].Secret, err = s.seal.Decrypt(out[i].Secret); err != nil {
			return nil, fmt.Errorf("unseal webhook secret: %w", err)
		}
	}
	return out, nil
}

// Delivery is one event's delivery to one endpoint, as the delivery log
// shows it.
type Delivery struct {
	ID            string
	EventID       string
	EventType     string
	Status        string // pending, sending, delivered or failed
	Attempts      int
	LastStatus    *int // the receiver's HTTP status
	LastError     string
	LatencyMs     *int
	LastAttemptAt *time.Time
	NextRetryAt   *time.Time // when pending
	CreatedAt     time.Time
}

// DeliveriesPage is the number of deliveries a page of the log holds.
const DeliveriesPage = 50

// ErrBadCursor is a cursor this store did not hand out.
var ErrBadCursor = domain.Errorf(domain.CodeInvalid, "cursor is not a cursor this list gave")

// Deliveries returns a page of endpoint id's deliveries, newest event first,
// after cursor ("" for the first page), and the next page's cursor ("" at
// the end). An endpoint not of accountID is domain.ErrWebhookEndpointNotFound.
func (s *Store) Deliveries(ctx context.Context, accountID, id, cursor string) ([]Delivery, string, error) {
	before := int64(1<<63 - 1)
	if cursor != "" {
		n, err := strconv.ParseInt(cursor, 10, 64)
		if err != nil || n <= 0 {
			return nil, "", ErrBadCursor
		}
		before = n
	}
	var exists bool
	if err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = $1 AND account_id = $2)`,
		id, accountID).Scan(&exists); err != nil {
		return nil, "", fmt.Errorf("find webhook endpoint: %w", err)
	}
	if !exists {
		return nil, "", domain.ErrWebhookEndpointNotFound
	}
	rows, err := s.pool.Query(ctx, `SELECT id::text, event_id, event_type, status, attempts, last_status, last_error, last_latency_ms,
			last_attempt_at, CASE WHEN status = 'pending' THEN next_attempt_at END, created_at, position
		FROM webhook_deliveries WHERE endpoint_id = $1 AND position < $2 ORDER BY position DESC LIMIT $3`, id, before, DeliveriesPage+1)
	if err != nil {
		return nil, "", fmt.Errorf("list webhook deliveries: %w", err)
	}
	var positions []int64
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Delivery, error) {
		var d Delivery
		var pos int64
		err := r.Scan(&d.ID, &d.EventID, &d.EventType, &d.Status, &d.Attempts, &d.LastStatus, &d.LastError, &d.LatencyMs,
			&d.LastAttemptAt, &d.NextRetryAt, &d.CreatedAt, &pos)
		positions = append(positions, pos)
		return d, err
	})
	if err != nil {
		return nil, "", fmt.Errorf("list webhook deliveries: %w", err)
	}
	next := ""
	if len(out) > DeliveriesPage {
		out = out[:DeliveriesPage]
		next = strconv.FormatInt(positions[DeliveriesPage-1], 10)
	}
	return out, next, nil
}

// Errors of Resend.
var (
	ErrDeliveryNotFound = domain.Errorf(domain.CodeNotFound, "Delivery not found")
	ErrDeliveryUnderWay = domain.Errorf(domain.CodeConflict, "This delivery is being attempted now; try again in a moment")
	ErrEndpointDisabled = domain.Errorf(domain.CodeConflict, "This endpoint is disabled; remove it and add it again to receive events")
)

// Resend queues delivery deliveryID of endpoint id again, due now; its
// attempts go on counting.
func (s *Store) Resend(ctx context.Context, accountID, id, deliveryID string, now time.Time) error {
	var status, endpoint string
	err := s.pool.QueryRow(ctx, `WITH d AS (
			SELECT d.id, d.status, e.status AS endpoint FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
			WHERE d.id::text = $3 AND d.endpoint_id = $1 AND e.account_id = $2 FOR UPDATE OF d),
		u AS (UPDATE webhook_deliveries w SET status = 'pending', next_attempt_at = $4, created_at = $4
			FROM d WHERE w.id = d.id AND d.status <> 'sending' AND d.endpoint = 'enabled' RETURNING w.id)
		SELECT d.status, d.endpoint FROM d`, id, accountID, deliveryID, now).Scan(&status, &endpoint)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		return ErrDeliveryNotFound
	case err != nil:
		return fmt.Errorf("resend webhook delivery: %w", err)
	case endpoint != "enabled":
		return ErrEndpointDisabled
	case status == "sending":
		return ErrDeliveryUnderWay
	}
	return nil
}

// FinalRetention is how long delivered and failed deliveries stay in the
// log the page shows; the retention pruner removes them after.
const FinalRetention = 30 * 24 * time.Hour

// PruneFinal deletes, through q, up to limit delivered or failed
// deliveries last attempted (or queued) before before.
func PruneFinal(ctx context.Context, q Execer, before time.Time, limit int) (int64, error) {
	tag, err := q.Exec(ctx, `DELETE FROM webhook_deliveries WHERE id = ANY(ARRAY(
		SELECT id FROM webhook_deliveries WHERE status IN ('delivered', 'failed') AND coalesce(last_attempt_at, created_at) < $1 LIMIT $2))`,
		before, limit)
	if err != nil {
		return 0, fmt.Errorf("prune webhook deliveries: %w", err)
	}
	return tag.RowsAffected(), nil
}
