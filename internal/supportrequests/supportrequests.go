// Package supportrequests keeps the support requests sellers send from the
// dashboard (table support_requests).
package supportrequests

import (
	"context"
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
	CreatedAt time.Time
}

// Store writes support requests.
type Store struct {
	pool *pgxpool.Pool
}

// NewStore returns a Store on pool.
func NewStore(pool *pgxpool.Pool) *Store { return &Store{pool: pool} }

// Create stores a new request of accountID and queues the mail that notify
// makes of it in the mail outbox, in one transaction, and returns it with
// its id.
func (s *Store) Create(ctx context.Context, accountID, email, subject, message string, now time.Time, notify func(Request) mail.Message) (Request, error) {
	r := Request{ID: uuid.NewString(), AccountID: accountID, Email: email, Subject: subject, Message: message, CreatedAt: now}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO support_requests (id, account_id, email, subject, message, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, r.ID, r.AccountID, r.Email, r.Subject, r.Message, r.CreatedAt); err != nil {
			return fmt.Errorf("store support request: %w", err)
		}
		return mail.Enqueue(ctx, tx, mail.KindSupport, notify(r), now)
	})
	if err != nil {
		return Request{}, err
	}
	return r, nil
}
