package mail

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Mailbox is the development mailbox: it keeps messages in the dev_mail
// table instead of sending them.
type Mailbox struct {
	pool *pgxpool.Pool
	log  *slog.Logger
}

// NewMailbox returns the mailbox on pool.
func NewMailbox(pool *pgxpool.Pool, log *slog.Logger) *Mailbox {
	return &Mailbox{pool: pool, log: log}
}

// Send implements Mailer by storing m.
func (b *Mailbox) Send(ctx context.Context, m Message) error {
	if _, err := b.pool.Exec(ctx, `INSERT INTO dev_mail (recipient, subject, body, sent_at) VALUES ($1, $2, $3, $4)`,
		m.To, m.Subject, m.Text, time.Now().UTC()); err != nil {
		return fmt.Errorf("capture mail: %w", err)
	}
	b.log.InfoContext(ctx, "mail captured in the development mailbox", "to", m.To, "subject", m.Subject)
	return nil
}

// Captured is a message in the mailbox.
type Captured struct {
	To      string    `json:"to"`
	Subject string    `json:"subject"`
	Text    string    `json:"text"`
	SentAt  time.Time `json:"sentAt"`
}

// List returns up to limit messages to the address to (any case), newest
// first.
func (b *Mailbox) List(ctx context.Context, to string, limit int) ([]Captured, error) {
	rows, err := b.pool.Query(ctx, `SELECT recipient, subject, body, sent_at FROM dev_mail
		WHERE lower(recipient) = lower($1) ORDER BY id DESC LIMIT $2`, to, limit)
	if err != nil {
		return nil, fmt.Errorf("list mail: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Captured, error) {
		var c Captured
		err := row.Scan(&c.To, &c.Subject, &c.Text, &c.SentAt)
		c.SentAt = c.SentAt.UTC()
		return c, err
	})
	if err != nil {
		return nil, fmt.Errorf("list mail: %w", err)
	}
	return list, nil
}
