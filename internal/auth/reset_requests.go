package auth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/mail"
)

// Reset mail limits per address: a mail at most every ResetMailInterval,
// at most ResetMailsPerHour in an hour and ResetMailsPerDay in a day.
// Requests beyond them are answered as usual and send nothing.
const (
	ResetMailInterval = time.Minute
	ResetMailsPerHour = 5
	ResetMailsPerDay  = 10
)

// ResetRequestRetention is how long handled requests are kept.
const ResetRequestRetention = 24 * time.Hour

// Outcomes of a reset request.
const (
	ResetMailed    = "mailed" // a token stored and its mail queued in the outbox
	ResetLimited   = "limited"
	ResetNoAccount = "no_account"
)

// RequestReset queues a password reset for email. It does the same work
// whether or not an account has the address, so neither the answer nor its
// time tells them apart; ResetWorker does the rest.
func (s *Store) RequestReset(ctx context.Context, email string, now time.Time) error {
	if _, err := s.pool.Exec(ctx, `INSERT INTO password_reset_requests (email, requested_at) VALUES ($1, $2)`,
		domain.NormalizeEmail(email), now); err != nil {
		return fmt.Errorf("queue reset request: %w", err)
	}
	return nil
}

// ResetWorker handles queued reset requests: for an address with an
// account and within the limits it stores a new token (replacing earlier
// ones) and queues the mail that compose makes of it in the mail outbox,
// in one short transaction. Several API processes can each run one: a
// request is claimed with SKIP LOCKED and an address is decided under its
// advisory lock.
type ResetWorker struct {
	store   *Store
	compose func(to, token string) mail.Message
	queued  func() // told when a mail was queued (nudges the sender)
	log     *slog.Logger
	nudge   chan struct{}
	Now     func() time.Time // the clock; tests set it
}

// NewResetWorker returns a worker mailing what compose makes; queued, when
// not nil, is called after a mail was queued.
func (s *Store) NewResetWorker(compose func(to, token string) mail.Message, queued func(), log *slog.Logger) *ResetWorker {
	if queued == nil {
		queued = func() {}
	}
	return &ResetWorker{store: s, compose: compose, queued: queued, log: log, nudge: make(chan struct{}, 1), Now: time.Now}
}

// Nudge makes the worker look for requests now rather than at its next poll.
func (w *ResetWorker) Nudge() {
	select {
	case w.nudge <- struct{}{}:
	default:
	}
}

// Run handles requests until ctx ends, looking every poll and when nudged.
func (w *ResetWorker) Run(ctx context.Context, poll time.Duration) {
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		if _, err := w.HandleAll(ctx); err != nil && ctx.Err() == nil {
			w.log.ErrorContext(ctx, "password reset requests", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-w.nudge:
		}
	}
}

// HandleAll handles waiting requests until none is left and says how many
// it handled.
func (w *ResetWorker) HandleAll(ctx context.Context) (int, error) {
	n := 0
	for {
		ok, err := w.handleOne(ctx)
		if err != nil || !ok {
			return n, err
		}
		n++
	}
}

func (w *ResetWorker) handleOne(ctx context.Context) (bool, error) {
	mailed, found, err := w.decide(ctx)
	if mailed {
		w.queued()
	}
	return found, err
}

// decide claims the oldest waiting request and records its outcome, in one
// short transaction; for a mail to send it also stores the token and
// queues the mail. It says whether a mail was queued and whether there was
// a request.
func (w *ResetWorker) decide(ctx context.Context) (mailed, found bool, err error) {
	var c struct {
		id    int64
		email string
	}
	tx, err := w.store.pool.Begin(ctx)
	if err != nil {
		return false, false, fmt.Errorf("begin: %w", err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	err = tx.QueryRow(ctx, `SELECT id, email FROM password_reset_requests WHERE outcome IS NULL
		ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`).Scan(&c.id, &c.email)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, false, nil
	}
	if err != nil {
		return false, false, fmt.Errorf("claim reset request: %w", err)
	}
	// One decision at a time per address, across processes.
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('reset:' || $1, 0))`, c.email); err != nil {
		return false, false, fmt.Errorf("lock address: %w", err)
	}
	now := w.Now()
	outcome, accountID, err := w.outcome(ctx, tx, c.email, now)
	if err != nil {
		return false, false, err
	}
	if outcome == ResetMailed {
		token, err := NewToken()
		if err != nil {
			return false, false, err
		}
		if err := storeResetToken(ctx, tx, accountID, token, now); err != nil {
			return false, false, err
		}
		if err := mail.Enqueue(ctx, tx, mail.KindReset, w.compose(c.email, token), now); err != nil {
			return false, false, err
		}
	}
	if _, err := tx.Exec(ctx, `UPDATE password_reset_requests SET outcome = $2, handled_at = $3 WHERE id = $1`, c.id, outcome, now); err != nil {
		return false, false, fmt.Errorf("record reset request: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return false, false, fmt.Errorf("commit reset request: %w", err)
	}
	return outcome == ResetMailed, true, nil
}

// outcome decides a request for email at now: no account, over a limit,
// or a mail to send (with the account).
func (w *ResetWorker) outcome(ctx context.Context, tx pgx.Tx, email string, now time.Time) (string, string, error) {
	accountID, err := accountByEmail(ctx, tx, email)
	if errors.Is(err, ErrNoSuchUser) {
		return ResetNoAccount, "", nil
	}
	if err != nil {
		return "", "", err
	}
	// Handled requests are kept ResetRequestRetention (a day): the day's
	// count is complete.
	var lastMinute, lastHour, lastDay int
	if err := tx.QueryRow(ctx, `SELECT count(*) FILTER (WHERE handled_at > $2), count(*) FILTER (WHERE handled_at > $3),
			count(*) FILTER (WHERE handled_at > $4)
		FROM password_reset_requests WHERE email = $1 AND outcome = 'mailed'`,
		email, now.Add(-ResetMailInterval), now.Add(-time.Hour), now.Add(-24*time.Hour)).Scan(&lastMinute, &lastHour, &lastDay); err != nil {
		return "", "", fmt.Errorf("count reset mails: %w", err)
	}
	if lastMinute > 0 || lastHour >= ResetMailsPerHour || lastDay >= ResetMailsPerDay {
		return ResetLimited, accountID, nil
	}
	return ResetMailed, accountID, nil
}

// PruneResetRequests deletes, through q, up to limit handled reset
// requests made before before (the retention pruner calls it with
// ResetRequestRetention).
func PruneResetRequests(ctx context.Context, q Execer, before time.Time, limit int) (int64, error) {
	tag, err := q.Exec(ctx, `DELETE FROM password_reset_requests WHERE ctid = ANY(ARRAY(
		SELECT ctid FROM password_reset_requests WHERE requested_at < $1 AND outcome IS NOT NULL LIMIT $2))`, before, limit)
	if err != nil {
		return 0, fmt.Errorf("prune reset requests: %w", err)
	}
	return tag.RowsAffected(), nil
}
