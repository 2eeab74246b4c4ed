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
	// cache keeps the accounts Spend's commands left, for the next spend
	// of each (cache.go).
	cache *accountCache
}

// NewRepository returns a Repository on store; clock defaults to time.Now.
func NewRepository(store *eventstore.Store, clock Clock) *Repository {
	if clock == nil {
		clock = time.Now
	}
	return &Repository{store: store, clock: clock, cache: newAccountCache(defaultCacheBytes)}
}

// AccountCacheStats are how often a spend's decider run found its account
// in memory (hits) or decoded the head's snapshot or stream (misses), since
// the start: per run, so a spend retried after a conflict or run again
// after its group commit failed counts once per run.
func (r *Repository) AccountCacheStats() (hits, misses int64) {
	return r.cache.hits.Load(), r.cache.misses.Load()
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
//
// The account the command leaves is kept in memory once it has committed,
// with the head its command wrote; the account's next spend names that
// head (UpdateOptions.Known) and, if it is still the stream's, is sent no
// snapshot and takes the kept account instead of decoding one (cache.go).
// Such a spend writes the account's snapshot only every snapshotEvery
// versions; the others move the head and leave the snapshot behind, with
// the events since as its tail.
func (r *Repository) Spend(ctx context.Context, id string, opts eventstore.UpdateOptions, cmd SpendCommand) (eventstore.Result, error) {
	asCommand := func(ctx context.Context, tx pgx.Tx, a *domain.Account, now time.Time) (any, error) {
		return cmd(ctx, tx, a, now)
	}
	var k kept
	decide := r.deciderKeeping(id, asCommand, &k)
	opts.Known = r.cache.known(id)
	var res eventstore.Result
	var err error
	if r.batcher == nil {
		res, err = r.store.Update(ctx, domain.StreamID(id), opts, decide)
	} else {
		res, err = r.batcher.Update(ctx, domain.StreamID(id), opts, decide)
	}
	// The decider's last run is the one whose decision committed, unless
	// the answer is a replay (its last attempt found the key and did not
	// decide) or an error (a refusal, a failed or unknown commit).
	if err == nil && !res.Replayed && k.a != nil && res.StreamVersion == k.version {
		if k.a.Stored(); k.a.Version() == k.version {
			r.cache.put(id, k.a, eventstore.Head{Version: res.StreamVersion, Token: res.Token}, k.weight)
		}
	}
	return res, err
}

// snapshotEvery is how far a spend on a cached account lets the head move
// past its saved snapshot before writing a new one: a spend that would
// take the head this many versions or more past its state version writes
// the snapshot, others leave it (saving the encoding, sending and writing
// of ~0.9 kB a spend). So a command that does not find its account in the
// cache decodes the snapshot and fewer than snapshotEvery events after it,
// read in one more round trip (docs/benchmarks.md, issue 36, eighth
// session).
const snapshotEvery = 32

// kept is what a decider's last run decided: the account it left, with
// its pending changes, the version they bring it to and the capacity of
// its last snapshot's bytes; a nil account when that run refused or
// failed.
type kept struct {
	a       *domain.Account
	version int64
	weight  int
}

// decider decides cmd on account id's locked snapshot.
func (r *Repository) decider(id string, cmd Command) eventstore.DecideFunc {
	return r.deciderKeeping(id, cmd, nil)
}

// deciderKeeping is decider; with a k, each run notes in *k the account it
// decided on (nil when it did not decide), the account is taken from the
// cache when the cache holds the one the head's write left, and the
// snapshot is written only when the account was not (a miss), when the
// command appends nothing, or every snapshotEvery versions.
func (r *Repository) deciderKeeping(id string, cmd Command, k *kept) eventstore.DecideFunc {
	return func(ctx context.Context, tx pgx.Tx, snap eventstore.Snapshot) (eventstore.Decision, error) {
		if k != nil {
			*k = kept{}
		}
		if snap.Version == 0 {
			return eventstore.Decision{}, ErrNotFound
		}
		var a *domain.Account
		var weight int // the kept account's last snapshot's; 0: decoded, not from the cache
		var err error
		if k != nil {
			a, weight, err = r.loadCached(ctx, tx, id, snap)
		} else {
			a, err = r.load(ctx, tx, id, snap)
		}
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
		a.ReviewAutoRecharge(now)      // the in-flight marker, in the spend's decision (recharge.go)
		var save func(events int) bool // nil: always
		if k != nil {
			save = func(events int) bool {
				return weight == 0 || events == 0 || snap.Version+int64(events)-snap.StateVersion >= snapshotEvery
			}
		}
		d, err := decision(a, result, now, save)
		if err != nil {
			return eventstore.Decision{}, err
		}
		if err := r.queueAlertMail(ctx, tx, a, now); err != nil {
			return eventstore.Decision{}, err
		}
		if err := r.queueRecharges(ctx, tx, a, now); err != nil {
			return d, err
		}
		if k != nil {
			if d.State != nil {
				weight = cap(d.State)
			}
			*k = kept{a: a, version: snap.Version + int64(len(d.Events)), weight: weight}
		}
		return d, nil
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
		return decision(a, nil, now, nil)
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

// loadCached is load, taking the account from the cache when the head is
// the one the cached account's command wrote, and returning with it the
// weight it was kept with (0 when it was decoded). A Current snapshot
// (the head the command named) carries no state: when the cache no longer
// holds that account (a failed run of the same command took it), the head
// is read again, in tx, under the lock the command holds.
func (r *Repository) loadCached(ctx context.Context, tx pgx.Tx, id string, snap eventstore.Snapshot) (*domain.Account, int, error) {
	head := eventstore.Head{Version: snap.Version, Token: snap.Token}
	if a, weight := r.cache.take(id, head); a != nil {
		return a, weight, nil
	}
	if snap.Current {
		var err error
		if snap, err = r.store.SnapshotIn(ctx, tx, domain.StreamID(id)); err != nil {
			return nil, 0, err
		}
		if snap.Version != head.Version || snap.Token != head.Token {
			return nil, 0, fmt.Errorf("account %s: the head moved under its lock", id)
		}
	}
	a, err := r.load(ctx, tx, id, snap)
	return a, 0, err
}

// decision is a's pending changes as a decision's events, with result and,
// unless save says otherwise for that many events (nil: always), a's
// snapshot as its state.
func decision(a *domain.Account, result any, now time.Time, save func(events int) bool) (eventstore.Decision, error) {
	d := eventstore.Decision{At: now, WakeAt: a.NextWake()}
	for _, e := range a.Changes() {
		typ, sv, data, err := domain.EncodeEvent(e)
		if err != nil {
			return eventstore.Decision{}, err
		}
		d.Events = append(d.Events, eventstore.NewEvent{Type: typ, SchemaVersion: sv, Data: data})
	}
	if save == nil || save(len(d.Events)) {
		state, err := a.Snapshot()
		if err != nil {
			return eventstore.Decision{}, fmt.Errorf("snapshot: %w", err)
		}
		d.State = state
	}
	if result != nil {
		var err error
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
