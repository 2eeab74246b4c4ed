package mail

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
)

// Kinds of mail, for logs and metrics.
const (
	KindVerification = "verification"
	KindReset        = "reset"
	KindSupport      = "support"
	KindBilling      = "billing"
)

// Execer runs a statement: the transaction that decides to send a mail.
type Execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// Enqueue writes m to the outbox through q, the transaction that decides to
// send it: the mail exists exactly when that transaction commits. The
// Sender delivers it after commit.
func Enqueue(ctx context.Context, q Execer, kind string, m Message, now time.Time) error {
	if _, err := q.Exec(ctx, `INSERT INTO mail_outbox (kind, recipient, reply_to, subject, body, next_attempt_at, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $6)`, kind, m.To, m.ReplyTo, m.Subject, m.Text, now); err != nil {
		return fmt.Errorf("queue %s mail: %w", kind, err)
	}
	return nil
}

// SenderOptions bound the sender's work; zero values take the defaults.
type SenderOptions struct {
	// Timeout bounds one delivery (SMTP_TIMEOUT); default 10 s.
	Timeout time.Duration
	// MaxBackoff caps the wait between attempts, so mail queued during an
	// outage goes out within about that long of the server's return;
	// default 60 s.
	MaxBackoff time.Duration
	// GiveUpAfter is how long a mail is retried before it is marked failed
	// (MAIL_GIVE_UP_AFTER); default 24 h.
	GiveUpAfter time.Duration
	// Poll is how often the outbox is looked at without a nudge; default 1 s.
	Poll time.Duration
}

func (o SenderOptions) withDefaults() SenderOptions {
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = time.Minute
	}
	if o.GiveUpAfter <= 0 {
		o.GiveUpAfter = 24 * time.Hour
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	return o
}

// leaseMargin is added to the delivery timeout to make a claim's lease: a
// claim is never taken over while its sender may still be talking.
const leaseMargin = 30 * time.Second

// Sender delivers the outbox through a Mailer (SMTP, or the development
// mailbox) with no database transaction open while it talks to the server.
// A mail is claimed (status sending, leased) in one short statement and
// settled in another, so several senders never send the same mail in the
// normal path. Only a sender killed after the server accepted a mail and
// before it settled may see it sent again when the lease ends.
type Sender struct {
	pool    *pgxpool.Pool
	mailer  Mailer
	log     *slog.Logger
	opts    SenderOptions
	nudge   chan struct{}
	Now     func() time.Time // the clock; tests set it
	pending prometheus.Gauge
	failed  prometheus.Gauge
}

// NewSender returns a sender of the outbox on pool through mailer.
func NewSender(pool *pgxpool.Pool, mailer Mailer, log *slog.Logger, opts SenderOptions) *Sender {
	return &Sender{
		pool: pool, mailer: mailer, log: log, opts: opts.withDefaults(), nudge: make(chan struct{}, 1), Now: time.Now,
		pending: prometheus.NewGauge(prometheus.GaugeOpts{Name: "mail_outbox_pending", Help: "Mails waiting to be delivered (pending or being sent)."}),
		failed:  prometheus.NewGauge(prometheus.GaugeOpts{Name: "mail_outbox_failed", Help: "Mails given up on, marked failed."}),
	}
}

// Register adds the sender's gauges to reg.
func (s *Sender) Register(reg prometheus.Registerer) error {
	return errors.Join(reg.Register(s.pending), reg.Register(s.failed))
}

// Nudge makes the sender look at the outbox now rather than at its next poll.
func (s *Sender) Nudge() {
	select {
	case s.nudge <- struct{}{}:
	default:
	}
}

// Run delivers due mail until ctx ends.
func (s *Sender) Run(ctx context.Context) {
	t := time.NewTicker(s.opts.Poll)
	defer t.Stop()
	for {
		if _, err := s.DeliverDue(ctx); err != nil && ctx.Err() == nil {
			s.log.ErrorContext(ctx, "mail outbox", "err", err)
		}
		if err := s.updateGauges(ctx); err != nil && ctx.Err() == nil {
			s.log.WarnContext(ctx, "mail outbox gauges", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-s.nudge:
		}
	}
}

// DeliverDue delivers every mail due now, one at a time, and says how many
// it attempted.
func (s *Sender) DeliverDue(ctx context.Context) (int, error) {
	n := 0
	for ctx.Err() == nil {
		m, ok, err := s.claim(ctx)
		if err != nil || !ok {
			return n, err
		}
		n++
		if err := s.deliver(ctx, m); err != nil {
			return n, err
		}
	}
	return n, ctx.Err()
}

// queued is a claimed mail.
type queued struct {
	id        int64
	kind      string
	msg       Message
	attempts  int
	createdAt time.Time
}

// claim takes the oldest due mail and leases it, in one statement.
func (s *Sender) claim(ctx context.Context) (queued, bool, error) {
	now := s.Now()
	var q queued
	err := s.pool.QueryRow(ctx, `UPDATE mail_outbox SET status = 'sending', attempts = attempts + 1, next_attempt_at = $2
		WHERE id = (SELECT id FROM mail_outbox WHERE status IN ('pending', 'sending') AND next_attempt_at <= $1
			ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
		RETURNING id, kind, recipient, reply_to, subject, body, attempts, created_at`,
		now, now.Add(s.opts.Timeout+leaseMargin)).Scan(&q.id, &q.kind, &q.msg.To, &q.msg.ReplyTo, &q.msg.Subject, &q.msg.Text, &q.attempts, &q.createdAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return q, false, nil
	}
	if err != nil {
		return q, false, fmt.Errorf("claim mail: %w", err)
	}
	return q, true, nil
}

// deliver sends a claimed mail and settles it: sent, retried later, or
// failed once GiveUpAfter has passed since it was queued.
func (s *Sender) deliver(ctx context.Context, q queued) error {
	sendCtx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	sendErr := s.mailer.Send(sendCtx, q.msg)
	cancel()
	now := s.Now()
	if sendErr == nil {
		_, err := s.pool.Exec(ctx, `UPDATE mail_outbox SET status = 'sent', sent_at = $2, body = '', last_error = '' WHERE id = $1`, q.id, now)
		if err != nil {
			return fmt.Errorf("settle mail %d as sent: %w", q.id, err)
		}
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err() // shutting down: the lease hands the mail to the next sender
	}
	msg := sendErr.Error()
	if now.Sub(q.createdAt) >= s.opts.GiveUpAfter {
		s.log.ErrorContext(ctx, "mail failed for good", "mail", q.id, "kind", q.kind, "to", q.msg.To, "attempts", q.attempts, "err", msg)
		_, err := s.pool.Exec(ctx, `UPDATE mail_outbox SET status = 'failed', body = '', last_error = $2 WHERE id = $1`, q.id, msg)
		if err != nil {
			return fmt.Errorf("settle mail %d as failed: %w", q.id, err)
		}
		return nil
	}
	wait := s.backoff(q.attempts)
	s.log.WarnContext(ctx, "mail not delivered; will retry", "mail", q.id, "kind", q.kind, "to", q.msg.To, "attempts", q.attempts,
		"retryIn", wait.String(), "err", msg)
	if _, err := s.pool.Exec(ctx, `UPDATE mail_outbox SET status = 'pending', next_attempt_at = $2, last_error = $3 WHERE id = $1`,
		q.id, now.Add(wait), msg); err != nil {
		return fmt.Errorf("settle mail %d for a retry: %w", q.id, err)
	}
	return nil
}

// backoff is the wait after the attempts-th failure: 1 s doubling, capped
// at MaxBackoff, with up to 20% jitter so senders do not beat in step.
func (s *Sender) backoff(attempts int) time.Duration {
	d := s.opts.MaxBackoff
	if attempts < 30 {
		d = min(time.Second<<(attempts-1), s.opts.MaxBackoff)
	}
	return d - time.Duration(rand.Int64N(int64(d)/5+1))
}

func (s *Sender) updateGauges(ctx context.Context) error {
	var pending, failed int64
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE status IN ('pending', 'sending')), count(*) FILTER (WHERE status = 'failed')
		FROM mail_outbox WHERE status IN ('pending', 'sending', 'failed')`).Scan(&pending, &failed); err != nil {
		return fmt.Errorf("count outbox: %w", err)
	}
	s.pending.Set(float64(pending))
	s.failed.Set(float64(failed))
	return nil
}
