// Package accounts is the seller account's repository: it loads the
// aggregate from its snapshot, runs a domain decision and appends the
// resulting events, all in one transaction of the event store. The use cases
// that call it are the application layer, internal/app/command; the rules
// live in package domain; the transaction and the retries live here and in
// eventstore.Update, never in HTTP handlers.
package accounts

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
)

// ErrNotFound is returned for an account that has no stream.
var ErrNotFound = domain.Errorf(domain.CodeNotFound, "Account not found")

// Clock returns the current time.
type Clock func() time.Time

// Repository runs commands on seller accounts.
type Repository struct {
	store   *eventstore.Store
	clock   Clock
	batcher *eventstore.Batcher // nil: Spend runs as Update
	alerts  AlertMail           // nil: alerts are recorded but not mailed (alerts.go)
	// rechargeMail: nil, auto-recharge's events are recorded but not
	// mailed (recharge.go).
	rechargeMail RechargeMail
}

// NewRepository returns a Repository on store; clock defaults to time.Now.
func NewRepository(store *eventstore.Store, clock Clock) *Repository {
	if clock == nil {
		clock = time.Now
	}
	return &Repository{store: store, clock: clock}
}

// Store returns the event store under the repository.
func (r *Repository) Store() *eventstore.Store { return r.store }

// Now is the repository's clock.
func (r *Repository) Now() time.Time { return r.clock().UTC() }

// Command changes an account inside the command's transaction. tx is for
// operational tables that must change atomically with the events; result, if
// not nil, is kept with the idempotency key and returned to a retry.
type Command func(ctx context.Context, tx pgx.Tx, a *domain.Account, now time.Time) (result any, err error)

// Update runs cmd on the existing account id.
func (r *Repository) Update(ctx context.Context, id string, opts eventstore.UpdateOptions, cmd Command) (eventstore.Result, error) {
	return r.store.Update(ctx, domain.StreamID(id), opts, r.decider(id, cmd))
}

// UseGroupCommit sends Spend's commands through b, which coalesces
// concurrent spends of different accounts into one transaction.
func (r *Repository) UseGroupCommit(b *eventstore.Batcher) { r.batcher = b }

// Close stops the group commit, if any, after its running batches.
func (r *Repository) Close() {
	if r.batcher != nil {
		r.batcher.Close()
	}
}

// SpendCommand is a command of the hot path. It runs in a group commit
// beside other accounts' commands, so it may read through q (the shared
// transaction: the VeRO list, for one) but never write: a write followed by
// a refusal would make the whole batch run again, command by command.
type SpendCommand func(ctx context.Context, q eventstore.Querier, a *domain.Account, now time.Time) (result any, err error)

// Spend runs cmd, a command on the hot path (the desktop client's metered
// calls), on the existing account id: through the group commit when there
// is one, else as Update. Either way it is one command with its own
// answer, refusal and idempotency key.
func (r *Repository) Spend(ctx context.Context, id string, opts eventstore.UpdateOptions, cmd SpendCommand) (eventstore.Result, error) {
	asCommand := func(ctx context.Context, tx pgx.Tx, a *domain.Account, now time.Time) (any, error) {
		return cmd(ctx, tx, a, now)
	}
	if r.batcher == nil {
		return r.Update(ctx, id, opts, asCommand)
	}
	return r.batcher.Update(ctx, domain.StreamID(id), opts, r.decider(id, asCommand))
}

// decider decides cmd on account id's locked snapshot.
func (r *Repository) decider(id string, cmd Command) eventstore.DecideFunc {
	return func(ctx context.Context, tx pgx.Tx, snap eventstore.Snapshot) (eventstore.Decision, error) {
		if snap.Version == 0 {
			return eventstore.Decision{}, ErrNotFound
		}
		a, err := r.load(ctx, tx, id, snap)
		if err != nil {
			return eventstore.Decision{}, err
		}
		now := r.Now()
		result, err := cmd(ctx, tx, a, now)
		if err != nil {
			return eventstore.Decision{}, err
		}
		// The alerts the command's outcome calls for are part of its own
		// decision, and their mails of its transaction: written last, after
		// every refusal could happen (see accounts/alerts.go).
		a.ReviewAlerts(now)
		a.ReviewAutoRecharge(now) // the in-flight marker, in the spend's decision (recharge.go)
		d, err := decision(a, result, now)
		if err != nil {
			return eventstore.Decision{}, err
		}
		if err := r.queueAlertMail(ctx, tx, a, now); err != nil {
			return eventstore.Decision{}, err
		}
		return d, r.queueRecharges(ctx, tx, a, now)
	}
}

// Creation decides a new account: it returns the account's first state
// and records what must commit with its events (credentials, API key rows)
// through w's typed methods, never seeing the transaction.
type Creation func(ctx context.Context, w Work, now time.Time) (*domain.Account, error)

// Create runs create for a new account id; it fails with a conflict when
// the account already exists.
func (r *Repository) Create(ctx context.Context, id string, opts eventstore.UpdateOptions, create Creation) (eventstore.Result, error) {
	return r.store.Update(ctx, domain.StreamID(id), opts, func(ctx context.Context, tx pgx.Tx, snap eventstore.Snapshot) (eventstore.Decision, error) {
		if snap.Version != 0 {
			return eventstore.Decision{}, domain.Errorf(domain.CodeConflict, "Account already exists")
		}
		now := r.Now()
		a, err := create(ctx, Work{tx: tx}, now)
		if err != nil {
			return eventstore.Decision{}, err
		}
		return decision(a, nil, now)
	})
}

// load restores the aggregate from its snapshot plus the events after it, or
// from its whole stream when there is no usable snapshot.
func (r *Repository) load(ctx context.Context, q eventstore.Querier, id string, snap eventstore.Snapshot) (*domain.Account, error) {
	if snap.State != nil {
		if a, err := domain.RestoreSnapshot(id, snap.StateVersion, snap.State); err == nil {
			tail, err := Decode(snap.Tail)
			if err != nil {
				return nil, err
			}
			return a, a.Replay(tail)
		}
	}
	recs, err := r.store.ReadStreamIn(ctx, q, domain.StreamID(id), 0, 0)
	if err != nil {
		return nil, err
	}
	history, err := Decode(recs)
	if err != nil {
		return nil, err
	}
	return domain.Rehydrate(id, history)
}

func decision(a *domain.Account, result any, now time.Time) (eventstore.Decision, error) {
	d := eventstore.Decision{At: now, WakeAt: a.NextWake()}
	for _, e := range a.Changes() {
		typ, sv, data, err := domain.EncodeEvent(e)
		if err != nil {
			return eventstore.Decision{}, err
		}
		d.Events = append(d.Events, eventstore.NewEvent{Type: typ, SchemaVersion: sv, Data: data})
	}
	state, err := a.Snapshot()
	if err != nil {
		return eventstore.Decision{}, fmt.Errorf("snapshot: %w", err)
	}
	d.State = state
	if result != nil {
		if d.Result, err = json.Marshal(result); err != nil {
			return eventstore.Decision{}, fmt.Errorf("encode result: %w", err)
		}
	}
	return d, nil
}

// Decode turns stored records into domain history.
func Decode(recs []eventstore.Record) ([]domain.Recorded, error) {
	out := make([]domain.Recorded, 0, len(recs))
	for _, rec := range recs {
		ev, err := domain.DecodeEvent(rec.Type, rec.SchemaVersion, rec.Data)
		if err != nil {
			return nil, fmt.Errorf("decode event %d: %w", rec.GlobalPosition, err)
		}
		out = append(out, domain.Recorded{Version: rec.StreamVersion, At: rec.RecordedAt, Event: ev})
	}
	return out, nil
}

// FromSnapshot returns account id as its next command would see it, from
// its snapshot plus the few events after it: one row read, whatever the
// stream's length (not from the read tables, not by replaying the stream).
// Prefer it on hot paths; Replay's cost grows with the account's history.
func (r *Repository) FromSnapshot(ctx context.Context, id string) (*domain.Account, error) {
	snap, err := r.store.Snapshot(ctx, domain.StreamID(id))
	if err != nil {
		return nil, err
	}
	if snap.Version == 0 {
		return nil, ErrNotFound
	}
	return r.load(ctx, r.store.Pool(), id, snap)
}

// FromSnapshotIn is FromSnapshot read in the caller's transaction tx (see
// eventstore.Store.SnapshotIn), needing no second connection.
func (r *Repository) FromSnapshotIn(ctx context.Context, tx pgx.Tx, id string) (*domain.Account, error) {
	snap, err := r.store.SnapshotIn(ctx, tx, domain.StreamID(id))
	if err != nil {
		return nil, err
	}
	if snap.Version == 0 {
		return nil, ErrNotFound
	}
	return r.load(ctx, tx, id, snap)
}

// Replay returns the current account id, read-only, by reading and
// applying every event of its stream from the first: the cost grows with
// the account's history, and the result never depends on a snapshot.
// FromSnapshot is the cheap read.
func (r *Repository) Replay(ctx context.Context, id string) (*domain.Account, error) {
	history, err := r.History(ctx, id)
	if err != nil {
		return nil, err
	}
	if len(history) == 0 {
		return nil, ErrNotFound
	}
	return domain.Rehydrate(id, history)
}

// History returns every event of account id, in order.
func (r *Repository) History(ctx context.Context, id string) ([]domain.Recorded, error) {
	recs, err := r.store.ReadStream(ctx, domain.StreamID(id), 0, 0)
	if err != nil {
		return nil, err
	}
	return Decode(recs)
}

// IsNotFound reports whether err says the account does not exist.
func IsNotFound(err error) bool { return errors.Is(err, ErrNotFound) }
