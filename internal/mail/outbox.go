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

	"github.com/a2e-automation/app/internal/pgpool"
)

// Kinds of mail, for logs and metrics.
const (
	KindVerification = "verification"
	KindReset        = "reset"
	KindSupport      = "support"
	KindBilling      = "billing"
	KindAlert        = "alert"   // balance alerts (accounts.AlertMails)
	KindWebhook      = "webhook" // an endpoint disabled (webhooks)
)

// Execer runs a statement: the transaction that decides to send a mail.
type Execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// Enqueue writes m to the outbox through q, the transaction that decides to
// send it: the mail exists exactly when that transaction commits. The
// Sender delivers it after commit, until m.ValidFor (or its GiveUpAfter)
// has passed.
func Enqueue(ctx context.Context, q Execer, kind string, m Message, now time.Time) error {
	expires := now.AddDate(100, 0, 0) // none of its own: the sender's GiveUpAfter applies
	if m.ValidFor > 0 {
		expires = now.Add(m.ValidFor)
	}
	if _, err := q.Exec(ctx, `INSERT INTO mail_outbox (kind, recipient, reply_to, subject, body, next_attempt_at, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $6, $7)`, kind, m.To, m.ReplyTo, m.Subject, m.Text, now, expires); err != nil {
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

// lease is how long a claim holds a mail: longer than any send can take
// (the connection and each of the SMTP conversation's steps may each use
// the whole Timeout), so a claim is never taken over while its sender may
// still be talking.
func (o SenderOptions) lease() time.Duration { return 8*o.Timeout + 30*time.Second }

// settleTimeout bounds one attempt at recording a delivery's outcome, which
// is done even while the sender shuts down.
const settleTimeout = 5 * time.Second

// FinalRetention is how long sent and failed mails are kept (without their
// bodies), for support to look at; the retention pruner removes them after.
const FinalRetention = 7 * 24 * time.Hour

// PruneFinal deletes, through q, up to limit sent or failed mails queued
// before before.
func PruneFinal(ctx context.Context, q Execer, before time.Time, limit int) (int64, error) {
	tag, err := q.Exec(ctx, `DELETE FROM mail_outbox WHERE ctid = ANY(ARRAY(
		SELECT ctid FROM mail_outbox WHERE status IN ('sent', 'failed') AND created_at < $1 LIMIT $2))`, before, limit)
	if err != nil {
		return 0, fmt.Errorf("prune mail outbox: %w", err)
	}
	return tag.RowsAffected(), nil
}

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
	expiresAt time.Time
}

// claim takes the oldest due mail and leases it, in one statement.
func (s *Sender) claim(ctx context.Context) (queued, bool, error) {
	now := s.Now()
	var q queued
	err := s.pool.QueryRow(ctx, `UPDATE mail_outbox SET status = 'sending', attempts = attempts + 1, next_attempt_at = $2
		WHERE id = (SELECT id FROM mail_outbox WHERE status IN ('pending', 'sending') AND next_attempt_at <= $1
			ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
		RETURNING id, kind, recipient, reply_to, subject, body, attempts, created_at, expires_at`,
		now, now.Add(s.opts.lease())).Scan(&q.id, &q.kind, &q.msg.To, &q.msg.ReplyTo, &q.msg.Subject, &q.msg.Text, &q.attempts, &q.createdAt, &q.expiresAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return q, false, nil
	}
	if err != nil {
		return q, false, fmt.Errorf("claim mail: %w", err)
	}
	return q, true, nil
}

// deliver sends a claimed mail and settles it: sent, retried later, or
// failed (refused for good, past its validity, or GiveUpAfter after it was
// queued). Settling is guarded by the claim (status and attempt), so a
// sender whose lease ran out never overwrites the next one's outcome, and
// it runs even while the sender shuts down, so a mail sent is recorded.
func (s *Sender) deliver(ctx context.Context, q queued) error {
	sendCtx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	sendErr := s.mailer.Send(sendCtx, q.msg)
	cancel()
	now := s.Now()
	// A database away at this moment (a failover) is waited for: a mail sent
	// but never settled would be sent again when its lease ends. Half the
	// lease is left for that, the send having taken at most Timeout of it.
	settleBy := time.Now().Add(s.opts.lease() / 2)
	settle := func(status, set string, args ...any) error {
		for wait := 100 * time.Millisecond; ; wait = min(2*wait, 2*time.Second) {
			settleCtx, done := context.WithTimeout(context.WithoutCancel(ctx), settleTimeout)
			_, err := s.pool.Exec(settleCtx, `UPDATE mail_outbox SET status = '`+status+`', `+set+`
				WHERE id = $1 AND status = 'sending' AND attempts = $2`, append([]any{q.id, q.attempts}, args...)...)
			done()
			if err == nil {
				return nil
			}
			if !pgpool.Unavailable(err) || time.Now().Add(wait).After(settleBy) {
				return fmt.Errorf("settle mail %d as %s: %w", q.id, status, err)
			}
			s.log.WarnContext(ctx, "settle mail: database unavailable, retrying", "mail", q.id, "retryIn", wait.String(), "err", err)
			time.Sleep(wait)
		}
	}
	if sendErr == nil {
		return settle("sent", "sent_at = $3, body = '', last_error = ''", now)
	}
	if ctx.Err() != nil {
		return ctx.Err() // shutting down mid-send: the lease hands the mail to the next sender
	}
	msg := sendErr.Error()
	var permanent *PermanentError
	if errors.As(sendErr, &permanent) || !now.Before(q.expiresAt) || now.Sub(q.createdAt) >= s.opts.GiveUpAfter {
		s.log.ErrorContext(ctx, "mail failed for good", "mail", q.id, "kind", q.kind, "to", q.msg.To, "attempts", q.attempts, "err", msg)
		return settle("failed", "body = '', last_error = $3", msg)
	}
	wait := s.backoff(q.attempts)
	s.log.WarnContext(ctx, "mail not delivered; will retry", "mail", q.id, "kind", q.kind, "to", q.msg.To, "attempts", q.attempts,
		"retryIn", wait.String(), "err", msg)
	return settle("pending", "next_attempt_at = $3, last_error = $4", now.Add(wait), msg)
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
