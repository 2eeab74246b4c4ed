// Package supportrequests keeps the support requests sellers send from the
// dashboard (table support_requests) and the thread of staff replies to
// each (support_replies): the console's support inbox.
package supportrequests

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/internal/mail"
)

// Request is one support request.
type Request struct {
	ID        string
	AccountID string
	Email     string // the seller's address, to answer to
	Subject   string
	Message   string
	Status    string // StatusOpen, StatusAnswered or StatusClosed
	CreatedAt time.Time
	UpdatedAt time.Time
	Replies   int // replies in its thread (lists only)
}

// Store writes support requests.
type Store struct {
	pool *pgxpool.Pool
}

// NewStore returns a Store on pool.
func NewStore(pool *pgxpool.Pool) *Store { return &Store{pool: pool} }

// Limit is at most Max requests per account in any Per.
type Limit struct {
	Max int
	Per time.Duration
}

// TooManyError refuses a request over a Limit: the next one is accepted
// after RetryAfter.
type TooManyError struct {
	Limit      Limit
	RetryAfter time.Duration
}

func (e *TooManyError) Error() string {
	return fmt.Sprintf("%d support requests in %v already; retry after %v", e.Limit.Max, e.Limit.Per, e.RetryAfter)
}

// Create stores a new request of accountID and queues the mail that notify
// makes of it in the mail outbox, in one transaction, and returns it with
// its id. An account's requests are counted one at a time (an advisory
// lock): over any of limits, nothing is stored and the error is a
// *TooManyError.
func (s *Store) Create(ctx context.Context, accountID, email, subject, message string, now time.Time, limits []Limit, notify func(Request) mail.Message) (Request, error) {
	r := Request{ID: uuid.NewString(), AccountID: accountID, Email: email, Subject: subject, Message: message,
		Status: StatusOpen, CreatedAt: now, UpdatedAt: now}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('support_requests:' || $1, 0))`, accountID); err != nil {
			return fmt.Errorf("lock support requests: %w", err)
		}
		for _, l := range limits {
			if err := within(ctx, tx, accountID, l, now); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO support_requests (id, account_id, email, subject, message, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $6)`, r.ID, r.AccountID, r.Email, r.Subject, r.Message, r.CreatedAt); err != nil {
			return fmt.Errorf("store support request: %w", err)
		}
		return mail.Enqueue(ctx, tx, mail.KindSupport, notify(r), now)
	})
	if err != nil {
		return Request{}, err
	}
	return r, nil
}

// within refuses one more request of accountID at now when l's Max were
// sent in the Per before it; RetryAfter is when the oldest of them leaves
// the window.
func within(ctx context.Context, tx pgx.Tx, accountID string, l Limit, now time.Time) error {
	var oldest time.Time
	err := tx.QueryRow(ctx, `SELECT created_at FROM support_requests WHERE account_id = $1 AND created_at > $2
		ORDER BY created_at DESC OFFSET $3 - 1 LIMIT 1`, accountID, now.Add(-l.Per), l.Max).Scan(&oldest)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("count support requests: %w", err)
	}
	return &TooManyError{Limit: l, RetryAfter: max(oldest.Add(l.Per).Sub(now), time.Second)}
}
