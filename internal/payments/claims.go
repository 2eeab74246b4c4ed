package payments

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
)

// One checkout at a time (issue 25). A checkout's reservation is claimed
// while its provider call runs, with no lock held: a second attempt of the
// same checkout (a double click, a script) waits for the first and answers
// the checkout it made, and while that checkout is still unpaid every later
// attempt answers it again instead of making another subscription or
// PaymentIntent. The provider gets the reservation's idempotency key again
// and answers with the object it made the first time (Stripe replays its
// answer; the simulated provider derives its objects from the key).
const (
	// checkoutLease is how long a claim holds: a claim older than this is
	// a crashed attempt's, and the next attempt takes it over with the
	// same key. Longer than the provider's budget for one call.
	checkoutLease = time.Minute
	// checkoutWait is how long a second attempt waits for the first before
	// it answers ErrCheckoutInProgress.
	checkoutWait = 10 * time.Second
	checkoutPoll = 100 * time.Millisecond
)

// ErrCheckoutInProgress answers an attempt that found the same checkout
// still being started by another one after checkoutWait.
var ErrCheckoutInProgress = domain.Errorf(domain.CodeConflict,
	"A checkout is already being started for your account. Please wait a moment and try again.")

// ErrUnverified refuses a payment to an account whose email address is not
// verified: no provider object is made for it.
var ErrUnverified = domain.Errorf(domain.CodeForbidden, "Please verify your email address before making a payment.")

// order is one kind of checkout: the reservation's action, credits and
// target, what to do once the claim is held (prepare, optional), the
// provider call, and how its checkout is recorded.
type order struct {
	action  string
	credits int64
	target  string
	prepare func(ctx context.Context) error
	create  func(ctx context.Context, key string) (Checkout, error)
	record  func(ctx context.Context, tx pgx.Tx, co Checkout) error
}

// claim is what an attempt found: the key to call the provider with, and
// whether another attempt holds it (inFlight) or its checkout is answered
// again (replay). Neither: this attempt holds the claim.
type claim struct {
	key              string
	inFlight, replay bool
}

// checkout runs o for accountID one attempt at a time: the attempt that
// holds the claim calls the provider and records the checkout; the others
// wait for it, then answer the same checkout.
func (s *Service) checkout(ctx context.Context, accountID string, o order) (Checkout, error) {
	deadline := time.Now().Add(checkoutWait)
	var c claim
	for {
		var err error
		if c, err = s.claim(ctx, accountID, o); err != nil {
			return Checkout{}, err
		}
		if c.replay {
			co, err := o.create(ctx, c.key)
			if err != nil {
				return Checkout{}, fmt.Errorf("%s checkout again: %w", o.action, err)
			}
			return co, nil
		}
		if !c.inFlight {
			break
		}
		if time.Now().After(deadline) {
			return Checkout{}, ErrCheckoutInProgress
		}
		select {
		case <-ctx.Done():
			return Checkout{}, ctx.Err()
		case <-time.After(checkoutPoll):
		}
	}
	if o.prepare != nil {
		if err := o.prepare(ctx); err != nil {
			s.release(ctx, c.key)
			return Checkout{}, err
		}
	}
	co, err := o.create(ctx, c.key)
	if err != nil {
		return Checkout{}, s.refused(ctx, c.key, fmt.Errorf("create %s checkout: %w", o.action, err))
	}
	if err := s.settle(ctx, c.key, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE provider_requests SET intent_id = $2 WHERE idempotency_key = $1`, c.key, co.PaymentIntentID); err != nil {
			return fmt.Errorf("record checkout of %s: %w", c.key, err)
		}
		return o.record(ctx, tx, co)
	}); err != nil {
		return Checkout{}, err
	}
	return co, nil
}

// claim decides, in one short transaction under the account's reservation
// lock, what this attempt of o does: wait for a live claim; answer again a
// checkout made within reuseReservation that is still unpaid; take over a
// claim its attempt abandoned (a crash, an unanswered call), with its key;
// or reserve afresh.
func (s *Service) claim(ctx context.Context, accountID string, o order) (claim, error) {
	now := s.accounts.Now()
	var c claim
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('provider_requests:' || $1, 0))`, accountID); err != nil {
			return fmt.Errorf("lock reservations: %w", err)
		}
		var status, intentStatus string
		var live bool
		err := tx.QueryRow(ctx, `SELECT r.idempotency_key, r.status, coalesce(r.claimed_at > $6, false), coalesce(i.status, '')
			FROM provider_requests r LEFT JOIN payment_intents i ON i.intent_id = r.intent_id
			WHERE r.account_id = $1 AND r.action = $2 AND r.credits = $3 AND r.target = $4
			  AND r.status IN ('reserved', 'done') AND r.created_at > $5
			ORDER BY r.created_at DESC LIMIT 1`,
			accountID, o.action, o.credits, o.target, now.Add(-reuseReservation), now.Add(-checkoutLease)).
			Scan(&c.key, &status, &live, &intentStatus)
		switch {
		case err != nil && !errors.Is(err, pgx.ErrNoRows):
			return err
		case err == nil && status == "reserved" && live:
			c.inFlight = true
			return nil
		case err == nil && status == "reserved":
			_, err := tx.Exec(ctx, `UPDATE provider_requests SET claimed_at = $2 WHERE idempotency_key = $1`, c.key, now)
			return err
		case err == nil && intentStatus == "requires_payment":
			c.replay = true
			return nil
		}
		c.key = o.action + ":" + uuid.NewString()
		_, err = tx.Exec(ctx, `INSERT INTO provider_requests (idempotency_key, account_id, action, credits, target, created_at, claimed_at)
			VALUES ($1, $2, $3, $4, $5, $6, $6)`, c.key, accountID, o.action, o.credits, o.target, now)
		return err
	})
	if err != nil {
		return claim{}, fmt.Errorf("claim %s checkout: %w", o.action, err)
	}
	return c, nil
}

// release gives up the claim of key without settling it: the provider was
// not called with it, and the next attempt takes it over at once.
func (s *Service) release(ctx context.Context, key string) {
	if _, err := s.pool.Exec(context.WithoutCancel(ctx), `UPDATE provider_requests SET claimed_at = NULL WHERE idempotency_key = $1`, key); err != nil {
		s.log.WarnContext(ctx, "release checkout claim", "key", key, "err", err)
	}
}
