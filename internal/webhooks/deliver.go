package webhooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Options bound the worker; zero values take the defaults.
type Options struct {
	// Timeout bounds one attempt, connection to answer; default 10 s.
	Timeout time.Duration
	// GiveUpAfter is how long a delivery is retried before it is marked
	// failed, and how long an endpoint may fail without a success before it
	// is disabled; default 3 days.
	GiveUpAfter time.Duration
	// Backoff is the wait after the attempts-th failed attempt; default
	// Backoff (30 s doubling, capped at 6 h, with jitter).
	Backoff func(attempts int) time.Duration
	// Poll is how often the log and the due deliveries are looked at
	// without a nudge; default 1 s.
	Poll time.Duration
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Second
	}
	if o.GiveUpAfter <= 0 {
		o.GiveUpAfter = 72 * time.Hour
	}
	if o.Backoff == nil {
		o.Backoff = Backoff
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	return o
}

// Backoff is the default wait after the attempts-th failure: 30 s doubling,
// capped at 6 h, less up to 20% jitter so endpoints that failed together
// are not retried in step. Over three days that is about 20 attempts.
func Backoff(attempts int) time.Duration {
	d := 6 * time.Hour
	if attempts < 20 {
		d = min(30*time.Second<<(attempts-1), d)
	}
	return d - time.Duration(rand.Int64N(int64(d)/5+1))
}

// lease is how long a claim holds a delivery: longer than an attempt can
// take, so a claim is never taken over while its worker may still send.
func (o Options) lease() time.Duration { return 3*o.Timeout + 30*time.Second }

// DisableFunc records that endpoint id of accountID is disabled for reason
// (an event in the account's stream, the endpoint's row and the seller's
// mail, in one transaction).
type DisableFunc func(ctx context.Context, accountID, id, reason string) error

// Worker dispatches the log and delivers the due deliveries, in every API
// process. A delivery is claimed (status sending, leased) in one short
// statement and settled in another, with no transaction open while the
// receiver is called, so several workers attempt each delivery once. Per
// endpoint, a delivery is claimed only when no earlier one (in log order)
// is still waiting: events reach an endpoint in the order of the log.
type Worker struct {
	pool       *pgxpool.Pool
	store      *Store
	dispatcher *Dispatcher
	client     *http.Client
	disable    DisableFunc
	log        *slog.Logger
	opts       Options
	nudge      chan struct{}
	Now        func() time.Time // the clock; tests set it
}

// NewWorker returns a worker that sends through policy's client.
func NewWorker(pool *pgxpool.Pool, store *Store, dispatcher *Dispatcher, policy Policy, disable DisableFunc, log *slog.Logger, opts Options) *Worker {
	opts = opts.withDefaults()
	return &Worker{pool: pool, store: store, dispatcher: dispatcher, client: policy.Client(opts.Timeout), disable: disable,
		log: log, opts: opts, nudge: make(chan struct{}, 1), Now: time.Now}
}

// Nudge makes the worker look now rather than at its next poll.
func (w *Worker) Nudge() {
	select {
	case w.nudge <- struct{}{}:
	default:
	}
}

// Run dispatches and delivers until ctx ends.
func (w *Worker) Run(ctx context.Context) {
	t := time.NewTicker(w.opts.Poll)
	defer t.Stop()
	for {
		if _, err := w.Work(ctx); err != nil && ctx.Err() == nil {
			w.log.ErrorContext(ctx, "webhooks", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-w.nudge:
		}
	}
}

// Work dispatches the log read so far, then attempts every due delivery;
// it says how many attempts it made.
func (w *Worker) Work(ctx context.Context) (int, error) {
	if _, err := w.dispatcher.Dispatch(ctx, w.Now()); err != nil {
		return 0, err
	}
	n := 0
	for ctx.Err() == nil {
		c, ok, err := w.claim(ctx)
		if err != nil || !ok {
			return n, err
		}
		n++
		if err := w.attempt(ctx, c); err != nil {
			return n, err
		}
	}
	return n, ctx.Err()
}

// claimed is a delivery claimed for one attempt.
type claimed struct {
	id, endpointID, accountID string
	body                      []byte
	attempts                  int
	createdAt                 time.Time
}

func (w *Worker) claim(ctx context.Context) (claimed, bool, error) {
	now := w.Now()
	var c claimed
	err := w.pool.QueryRow(ctx, `UPDATE webhook_deliveries SET status = 'sending', attempts = attempts + 1, next_attempt_at = $2,
			last_attempt_at = $1
		WHERE id = (SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.status = 'enabled'
			WHERE d.status IN ('pending', 'sending') AND d.next_attempt_at <= $1
			AND NOT EXISTS (SELECT 1 FROM webhook_deliveries p WHERE p.endpoint_id = d.endpoint_id
				AND p.status IN ('pending', 'sending') AND p.position < d.position)
			ORDER BY d.next_attempt_at, d.position LIMIT 1 FOR UPDATE OF d SKIP LOCKED)
		RETURNING id::text, endpoint_id, account_id::text, body, attempts, created_at`,
		now, now.Add(w.opts.lease())).Scan(&c.id, &c.endpointID, &c.accountID, &c.body, &c.attempts, &c.createdAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return c, false, nil
	}
	if err != nil {
		return c, false, fmt.Errorf("claim webhook delivery: %w", err)
	}
	return c, true, nil
}

// target is where a delivery goes and the secrets that sign it.
func (w *Worker) target(ctx context.Context, endpointID string, now time.Time) (url string, secrets []string, err error) {
	var current, previous string
	var until *time.Time
	if err := w.pool.QueryRow(ctx, `SELECT url, secret, previous_secret, previous_valid_until FROM webhook_endpoints WHERE id = $1`,
		endpointID).Scan(&url, &current, &previous, &until); err != nil {
		return "", nil, fmt.Errorf("webhook endpoint %s: %w", endpointID, err)
	}
	s, err := w.store.seal.Decrypt(current)
	if err != nil {
		return "", nil, fmt.Errorf("unseal webhook secret: %w", err)
	}
	secrets = []string{s}
	if previous != "" && until != nil && now.Before(*until) {
		if p, err := w.store.seal.Decrypt(previous); err == nil {
			secrets = append(secrets, p)
		}
	}
	return url, secrets, nil
}

// attempt sends a claimed delivery and settles it.
func (w *Worker) attempt(ctx context.Context, c claimed) error {
	now := w.Now()
	url, secrets, err := w.target(ctx, c.endpointID, now)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil // removed since: its deliveries went with it
	}
	if err != nil {
		return err
	}
	status, latency, sendErr := w.send(ctx, url, secrets, c, now)
	if ctx.Err() != nil {
		return ctx.Err() // shutting down mid-send: the lease hands it to the next worker
	}
	return w.settle(ctx, c, status, latency, sendErr)
}

// send makes one attempt: a 2xx answer within Timeout is a success, any
// other answer (a redirect included) or none is a failure.
func (w *Worker) send(ctx context.Context, url string, secrets []string, c claimed, now time.Time) (status int, latency time.Duration, err error) {
	sendCtx, cancel := context.WithTimeout(ctx, w.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(sendCtx, http.MethodPost, url, bytes.NewReader(c.body))
	if err != nil {
		return 0, 0, fmt.Errorf("request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "a2e-webhooks/1")
	req.Header.Set("A2E-Delivery-Id", c.id)
	req.Header.Set(SignatureHeader, Sign(secrets, now, c.body))
	start := time.Now()
	resp, err := w.client.Do(req)
	latency = time.Since(start)
	if err != nil {
		return 0, latency, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return resp.StatusCode, latency, fmt.Errorf("the endpoint answered %d", resp.StatusCode)
	}
	return resp.StatusCode, latency, nil
}

// settle records an attempt's outcome, guarded by the claim (status and
// attempt) so a worker whose lease ran out never overwrites the next one's.
// A failure is retried after Backoff until GiveUpAfter; an endpoint with
// no success for GiveUpAfter is disabled.
func (w *Worker) settle(ctx context.Context, c claimed, status int, latency time.Duration, sendErr error) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	now := w.Now()
	var code *int
	if status != 0 {
		code = &status
	}
	ms := int(latency.Milliseconds())
	if sendErr == nil {
		if _, err := w.pool.Exec(ctx, `UPDATE webhook_deliveries SET status = 'delivered', delivered_at = $3, last_status = $4,
			last_latency_ms = $5, last_error = '' WHERE id = $1 AND status = 'sending' AND attempts = $2`, c.id, c.attempts, now, code, ms); err != nil {
			return fmt.Errorf("settle webhook delivery %s: %w", c.id, err)
		}
		if _, err := w.pool.Exec(ctx, `UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1`, c.endpointID); err != nil {
			return fmt.Errorf("webhook endpoint %s succeeded: %w", c.endpointID, err)
		}
		return nil
	}
	msg := sendErr.Error()
	if len(msg) > 500 {
		msg = msg[:500]
	}
	next, state := now.Add(w.opts.Backoff(c.attempts)), "pending"
	if now.Sub(c.createdAt) >= w.opts.GiveUpAfter {
		state = "failed"
	}
	if _, err := w.pool.Exec(ctx, `UPDATE webhook_deliveries SET status = $3, next_attempt_at = $4, last_status = $5,
		last_latency_ms = $6, last_error = $7 WHERE id = $1 AND status = 'sending' AND attempts = $2`,
		c.id, c.attempts, state, next, code, ms, msg); err != nil {
		return fmt.Errorf("settle webhook delivery %s: %w", c.id, err)
	}
	var since time.Time
	if err := w.pool.QueryRow(ctx, `UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, $2) WHERE id = $1
		RETURNING failing_since`, c.endpointID, now).Scan(&since); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		return fmt.Errorf("webhook endpoint %s failed: %w", c.endpointID, err)
	}
	w.log.WarnContext(ctx, "webhook delivery failed", "delivery", c.id, "endpoint", c.endpointID, "attempts", c.attempts,
		"state", state, "err", msg)
	if now.Sub(since) < w.opts.GiveUpAfter || w.disable == nil {
		return nil
	}
	reason := fmt.Sprintf("no successful delivery since %s", since.UTC().Format(time.RFC3339))
	if err := w.disable(ctx, c.accountID, c.endpointID, reason); err != nil {
		return fmt.Errorf("disable webhook endpoint %s: %w", c.endpointID, err)
	}
	w.log.WarnContext(ctx, "webhook endpoint disabled", "endpoint", c.endpointID, "reason", reason)
	return nil
}
