package webhooks

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
)

// dispatchBatch is how many ledger events one dispatch transaction reads.
const dispatchBatch = 500

// Dispatcher turns the ledger's events into delivery rows, from its own
// checkpoint (webhook_dispatch), never a projection's: a projector rebuild
// moves no webhook checkpoint and sends nothing. One dispatcher works at a
// time across processes (the checkpoint row is taken FOR UPDATE SKIP
// LOCKED); the others find it taken and wait for their next turn. A batch
// writes its deliveries and moves the checkpoint in one transaction that
// makes no network call.
type Dispatcher struct {
	pool  *pgxpool.Pool
	store *eventstore.Store
}

// NewDispatcher returns the dispatcher of store's log on pool.
func NewDispatcher(pool *pgxpool.Pool, store *eventstore.Store) *Dispatcher {
	return &Dispatcher{pool: pool, store: store}
}

// Dispatch turns the events after the checkpoint into deliveries, a batch
// at a time, until the log is read; it says how many deliveries it queued.
func (d *Dispatcher) Dispatch(ctx context.Context, now time.Time) (int, error) {
	total := 0
	for {
		n, more, err := d.batch(ctx, now)
		total += n
		if err != nil || !more {
			return total, err
		}
	}
}

// batch dispatches one batch; more says the log may hold more.
func (d *Dispatcher) batch(ctx context.Context, now time.Time) (queued int, more bool, err error) {
	tx, err := d.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
	if err != nil {
		return 0, false, fmt.Errorf("begin webhook dispatch: %w", err)
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	var pos int64
	err = tx.QueryRow(ctx, `SELECT position FROM webhook_dispatch WHERE id = 1 FOR UPDATE SKIP LOCKED`).Scan(&pos)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, false, nil // another process is dispatching
	}
	if err != nil {
		return 0, false, fmt.Errorf("webhook checkpoint: %w", err)
	}
	recs, through, err := d.store.ReadTypesDataIn(ctx, tx, pos, dispatchBatch, dispatchedTypes)
	if err != nil || through == pos {
		return 0, false, err
	}
	for _, rec := range recs {
		n, err := d.one(ctx, tx, rec, now)
		if err != nil {
			return 0, false, err
		}
		queued += n
	}
	if _, err := tx.Exec(ctx, `UPDATE webhook_dispatch SET position = $1 WHERE id = 1`, through); err != nil {
		return 0, false, fmt.Errorf("move webhook checkpoint: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, false, fmt.Errorf("commit webhook dispatch: %w", err)
	}
	return queued, len(recs) == dispatchBatch, nil
}

// one handles one ledger event: an endpoint's WebhookEndpointAdded starts
// its subscription there; an event a webhook carries becomes a delivery to
// each of the account's enabled endpoints subscribed to its type since
// before it.
func (d *Dispatcher) one(ctx context.Context, tx pgx.Tx, rec eventstore.Record, now time.Time) (int, error) {
	accountID, ok := strings.CutPrefix(rec.StreamID, domain.StreamPrefix)
	if !ok {
		return 0, nil
	}
	ev, err := domain.DecodeEvent(rec.Type, rec.SchemaVersion, rec.Data)
	if err != nil {
		return 0, fmt.Errorf("decode event %d: %w", rec.GlobalPosition, err)
	}
	if added, ok := ev.(domain.WebhookEndpointAdded); ok {
		_, err := tx.Exec(ctx, `UPDATE webhook_endpoints SET from_position = $2 WHERE id = $1 AND from_position IS NULL`,
			added.EndpointID, rec.GlobalPosition)
		if err != nil {
			return 0, fmt.Errorf("start webhook endpoint %s: %w", added.EndpointID, err)
		}
		return 0, nil
	}
	typ, data, ok := Of(accountID, ev)
	if !ok {
		return 0, nil
	}
	body, err := Encode(rec.EventID.String(), typ, rec.RecordedAt, data)
	if err != nil {
		return 0, fmt.Errorf("encode webhook body of event %d: %w", rec.GlobalPosition, err)
	}
	tag, err := tx.Exec(ctx, `INSERT INTO webhook_deliveries (endpoint_id, account_id, event_id, event_type, position, body, next_attempt_at, created_at)
		SELECT id, account_id, $2, $3, $4, $5, $6, $6 FROM webhook_endpoints
		WHERE account_id = $1 AND status = 'enabled' AND from_position < $4 AND $3 = ANY (events)
		ON CONFLICT (endpoint_id, event_id) DO NOTHING`,
		accountID, "evt_"+rec.EventID.String(), typ, rec.GlobalPosition, body, now)
	if err != nil {
		return 0, fmt.Errorf("queue webhook deliveries of event %d: %w", rec.GlobalPosition, err)
	}
	return int(tag.RowsAffected()), nil
}
