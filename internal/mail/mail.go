// Package mail sends the product's emails: over SMTP when SMTP_URL is set,
// otherwise into the development mailbox (table dev_mail), where
// GET /api/dev/mail reads them. Logs name the recipient and the subject,
// never the body: bodies hold verification codes and reset links.
package mail

import (
	"context"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Message is one plain-text email.
type Message struct {
	To      string
	ReplyTo string // optional
	Subject string
	Text    string
	// ValidFor is how long the mail is worth delivering (a code's or a
	// link's lifetime); the outbox gives up on it after that. 0: the
	// sender's GiveUpAfter.
	ValidFor time.Duration
}

// PermanentError is a send the server refused for good (a 5xx reply, such
// as an unknown recipient): retrying it cannot succeed.
type PermanentError struct{ Err error }

func (e *PermanentError) Error() string { return "permanent: " + e.Err.Error() }
func (e *PermanentError) Unwrap() error { return e.Err }

// Mailer sends messages.
type Mailer interface {
	Send(ctx context.Context, m Message) error
}

// New returns the SMTP mailer of smtpURL sending as from (each step
// bounded by timeout), or, when smtpURL is empty, the development mailbox
// on pool.
func New(smtpURL, from string, timeout time.Duration, pool *pgxpool.Pool, log *slog.Logger) (Mailer, error) {
	if smtpURL == "" {
		return NewMailbox(pool, log), nil
	}
	return NewSMTP(smtpURL, from, timeout, log)
}
