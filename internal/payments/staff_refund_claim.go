package payments

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/catalog"
)

// A console refund is claimed before the provider is asked (issue 31,
// items 6 and 7), the way a checkout is (see checkout): in one short
// transaction under the account's reservation lock, an attempt either
// finds its Idempotency-Key's refund done (and answers it again), finds
// another attempt with the key calling the provider (and waits for it),
// or holds the claim (claimed_at) and, for a new refund, reserves its
// amount against what is left of the payment: the ledger's refundable
// amount minus what the console refunds reserved or taken by the provider
// take beyond the ledger (staffSums.beyond). Only the claim's holder calls the provider, outside any
// transaction, and records the answer and the audit line in a second short
// one. A definite refusal releases the amount; a call that got no answer
// keeps it reserved (the provider may have refunded), and the next attempt
// with the key takes the claim over at once and asks again with the same
// key.

// ErrStaffRefundInProgress answers an attempt that found another one with
// the same Idempotency-Key still asking the provider after checkoutWait;
// ErrStaffCancelInProgress, another cancellation of the subscription.
var ErrStaffRefundInProgress = domain.Errorf(domain.CodeConflict,
	"A refund with this Idempotency-Key is still being made. Wait a moment and send it again to see its result.")
var ErrStaffCancelInProgress = domain.Errorf(domain.CodeConflict,
	"A cancellation of this subscription is still being sent to Stripe. Wait a moment and reload the account.")

// staffClaim is what an attempt of a console refund or cancellation found.
type staffClaim struct {
	req      staffRequest
	payment  domain.PaidPayment
	inFlight bool // another attempt holds the claim: wait
	replay   bool // the key's refund is done: answer it again
	// asked: the provider may have been asked with this key already (an
	// unanswered call), so its amount stays reserved whatever happens.
	asked bool
	// apply: the simulated provider answered but its refund is not in the
	// ledger yet (an attempt that stopped in between): apply it.
	apply bool
}

// claimStaffRefund decides what this attempt of r, with provider key key
// and request hash hash, does (see staffClaim).
func (s *Service) claimStaffRefund(ctx context.Context, r StaffRefund, key, hash string) (staffClaim, error) {
	now := time.Now()
	var c staffClaim
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		c = staffClaim{}
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended('provider_requests:' || $1, 0))`, r.AccountID); err != nil {
			return fmt.Errorf("lock reservations: %w", err)
		}
		req, found, err := staffRequestIn(ctx, tx, key, now.Add(-checkoutLease))
		if err != nil {
			return err
		}
		c.req = req
		// A provider whose refunds this server applies (the simulated
		// one) has a done claim not applied yet re-applied.
		simulated := s.provider.simulation() == nil
		switch {
		case found && req.requestHash != hash:
			return fmt.Errorf("staff refund %s: %w", key, eventstore.ErrIdempotencyKeyReused)
		case found && req.status == "done" && (!simulated || req.applied || !req.claimed):
			c.replay = true
			return nil
		case found && req.live:
			c.inFlight = true
			return nil
		}
		// Read before the ledger: a refund the ledger takes in between is
		// then counted twice (refusing too much), never not at all.
		staff, err := staffRefundSums(ctx, tx, r.AccountID, r.PaymentID, key, "'reserved', 'done'")
		if err != nil {
			return err
		}
		a, err := s.accounts.FromSnapshotIn(ctx, tx, r.AccountID)
		if err != nil {
			return err
		}
		p, ok := a.Paid(r.PaymentID)
		if !ok {
			return domain.Errorf(domain.CodeNotFound, "This account has no paid payment %s", r.PaymentID)
		}
		c.payment = p
		pending := staff.beyond(p.RefundedCents)
		switch {
		case found && req.status == "done":
			c.apply = true
		case found && req.status == "reserved":
			c.asked = true
		default: // new, or refused before: reserve its amount again
			amount, err := r.Amount(p, pending)
			if err != nil {
				return err
			}
			if found && amount != req.amountCents { // the provider knows the key with its first amount
				return domain.Errorf(domain.CodeConflict, "Only %s of this payment can still be refunded; this Idempotency-Key asked for %s: use a new one",
					catalog.Dollars(amount), catalog.Dollars(req.amountCents))
			}
			c.req.amountCents = amount
			_, err = tx.Exec(ctx, `INSERT INTO provider_requests
					(idempotency_key, account_id, action, target, created_at, claimed_at, actor, reason, amount_cents, request_hash)
				VALUES ($1, $2, $3, $4, $5, $5, $6, $7, $8, $9)
				ON CONFLICT (idempotency_key) DO UPDATE SET status = 'reserved', claimed_at = $5, settled_at = NULL`,
				key, r.AccountID, actionStaffRefund, r.PaymentID, now, r.Actor, r.Reason, amount, hash)
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE provider_requests SET claimed_at = $2 WHERE idempotency_key = $1`, key, now)
		return err
	})
	if err != nil {
		return staffClaim{}, fmt.Errorf("claim staff refund: %w", err)
	}
	return c, nil
}

// staffSums are the amounts of a payment's console refunds: all of them,
// and those an applied provider event has marked as its own.
type staffSums struct{ all, marked int64 }

// beyond is how much those refunds take beyond what the ledger shows
// refunded (ledger): the unmarked ones, and at least all of them less
// the ledger's total. The marks are a guess (a charge.refunded carries a
// total, not which refunds it is made of, and may mark a refund still in
// flight instead of the one it applied), so neither is trusted alone:
// the larger is, which errs on the side of refusing, never of refunding
// twice.
func (m staffSums) beyond(ledger int64) int64 {
	return max(m.all-m.marked, m.all-min(ledger, m.marked))
}

// staffRefundSums sums the console refunds of payment paymentID other than
// key's whose status is among statuses (an SQL list).
func staffRefundSums(ctx context.Context, tx pgx.Tx, accountID, paymentID, key, statuses string) (staffSums, error) {
	var m staffSums
	err := tx.QueryRow(ctx, `SELECT coalesce(sum(amount_cents), 0)::bigint,
			coalesce(sum(amount_cents) FILTER (WHERE applied_event IS NOT NULL), 0)::bigint
		FROM provider_requests WHERE account_id = $1 AND action = $2 AND target = $3 AND status IN (`+statuses+`)
		  AND idempotency_key <> $4`, accountID, actionStaffRefund, paymentID, key).Scan(&m.all, &m.marked)
	if err != nil {
		return staffSums{}, fmt.Errorf("staff refunds of %s: %w", paymentID, err)
	}
	return m, nil
}

// staffRequestIn reads the staff reservation key in tx; live: claimed
// after leaseStart. found is false without one.
func staffRequestIn(ctx context.Context, tx pgx.Tx, key string, leaseStart time.Time) (req staffRequest, found bool, err error) {
	err = tx.QueryRow(ctx, `SELECT idempotency_key, status, coalesce(request_hash, ''), coalesce(amount_cents, 0),
			coalesce(provider_ref, ''), applied_event IS NOT NULL, claimed_at IS NOT NULL, coalesce(claimed_at > $2, false)
		FROM provider_requests WHERE idempotency_key = $1`, key, leaseStart).
		Scan(&req.key, &req.status, &req.requestHash, &req.amountCents, &req.refundID, &req.applied, &req.claimed, &req.live)
	if errors.Is(err, pgx.ErrNoRows) {
		return staffRequest{}, false, nil
	}
	if err != nil {
		return staffRequest{}, false, fmt.Errorf("read staff request %s: %w", key, err)
	}
	return req, true, nil
}

// settleOnce records the provider's answer to the claim key (ref: the
// refund's id, "" for none) and runs also (the audit line) with it, in one
// short transaction: once, however many attempts reach it (one whose
// claim was taken over after checkoutLease records nothing).
func (s *Service) settleOnce(ctx context.Context, key, ref string, also func(pgx.Tx) error) error {
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `UPDATE provider_requests SET status = 'done', settled_at = $2, provider_ref = coalesce(nullif($3, ''), provider_ref)
			WHERE idempotency_key = $1 AND status = 'reserved'`, key, time.Now(), ref)
		if err != nil {
			return fmt.Errorf("settle %s: %w", key, err)
		}
		if tag.RowsAffected() == 0 || also == nil {
			return nil
		}
		return also(tx)
	})
}

// finishClaim ends the claim of key: done, its answer is given again from
// now on (the simulated provider's: applied). With an error of the
// step that would have applied it, the claim is left expired instead, so
// the next attempt takes it over at once and applies it.
func (s *Service) finishClaim(ctx context.Context, key string, failed error) {
	at := "NULL"
	if failed != nil {
		at = "'-infinity'"
	}
	if _, err := s.pool.Exec(context.WithoutCancel(ctx), `UPDATE provider_requests SET claimed_at = `+at+` WHERE idempotency_key = $1`, key); err != nil {
		s.log.WarnContext(ctx, "finish staff refund claim", "key", key, "err", err)
	}
}

// abandonClaim gives up the claim of key before the provider was asked:
// an amount reserved by this attempt alone is released (refused), one the
// provider may already have been asked for stays reserved.
func (s *Service) abandonClaim(ctx context.Context, c staffClaim, key string) {
	if c.asked {
		s.release(ctx, key)
		return
	}
	if _, err := s.pool.Exec(context.WithoutCancel(ctx), `UPDATE provider_requests SET status = 'refused', claimed_at = NULL, settled_at = $2
		WHERE idempotency_key = $1 AND status = 'reserved'`, key, time.Now()); err != nil {
		s.log.WarnContext(ctx, "abandon staff refund claim", "key", key, "err", err)
	}
}

// waitForClaim waits checkoutPoll before the next look at a claim held by
// another attempt, or answers inProgress past deadline.
func waitForClaim(ctx context.Context, deadline time.Time, inProgress error) error {
	if time.Now().After(deadline) {
		return inProgress
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(checkoutPoll):
		return nil
	}
}

// simulatedRefundedTotal is how much of paymentID the simulated provider
// has refunded: what the ledger shows plus what the console refunds it
// made take beyond it (staffSums.beyond), read in one snapshot. Refunds
// made at the same time each send this total, as Stripe's charge.refunded
// events carry the charge's total, so none is lost when they are applied
// in any order (issue 31, item 7).
func (s *Service) simulatedRefundedTotal(ctx context.Context, accountID, paymentID string) (int64, error) {
	var total int64
	err := pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		a, err := s.accounts.FromSnapshotIn(ctx, tx, accountID)
		if err != nil {
			return err
		}
		made, err := staffRefundSums(ctx, tx, accountID, paymentID, "", "'done'")
		if err != nil {
			return err
		}
		total = a.RefundedCents(paymentID) + made.beyond(a.RefundedCents(paymentID))
		return nil
	})
	return total, err
}
