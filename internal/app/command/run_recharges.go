package command

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/payments"
)

// RunRecharges charges up to Limit pending recharges (the recharge outbox
// the spends' decisions wrote: accounts/recharge.go).
type RunRecharges struct {
	Limit int
}

// RunRechargesHandler is the recharge worker: it claims a recharge, asks
// the provider with no transaction open, then records what the answer
// means for the account in a second, short transaction. The credits are
// granted only when the payment is reported paid (Stripe's webhook, or the
// simulated provider's stand-in), through the pack purchase's path.
type RunRechargesHandler struct {
	accounts *accounts.Repository
	payments Recharger
	// sim reports a simulated recharge's outcome at once, as Stripe's
	// webhook does later.
	sim    simulated
	queued func()
	log    *slog.Logger
}

// rechargeLease is how long a claimed recharge is held before another
// worker may retry it: longer than the provider's budget for one call.
const rechargeLease = 2 * time.Minute

// Handle charges up to cmd.Limit recharges and returns how many it
// charged or settled. A provider that did not answer leaves its recharge
// for a later attempt with the same idempotency key, so a crossing is
// charged at most once.
func (h RunRechargesHandler) Handle(ctx context.Context, cmd RunRecharges) (int, error) {
	n := 0
	for n < cmd.Limit {
		req, ok, err := h.accounts.ClaimRecharge(ctx, rechargeLease)
		if err != nil || !ok {
			return n, err
		}
		if err := h.charge(ctx, req); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// charge charges one claimed recharge and records its answer.
func (h RunRechargesHandler) charge(ctx context.Context, req accounts.RechargeRequest) error {
	a, err := h.accounts.FromSnapshot(ctx, req.AccountID)
	if err != nil {
		return err
	}
	if id, _, _, inFlight := a.PendingRecharge(); !inFlight || id != req.RechargeID {
		// Already ended (a webhook that overtook the worker): nothing to charge.
		return h.accounts.RechargeCharged(ctx, req, "")
	}
	out, err := h.payments.ChargeRecharge(ctx, req.AccountID, req.RechargeID, req.Credits, req.AmountCents)
	if domain.ErrorCode(err) == domain.CodeUnavailable {
		h.log.WarnContext(ctx, "recharge: provider unavailable; retried later", "account", req.AccountID, "recharge", req.RechargeID, "err", err)
		backoff := time.Duration(min(req.Attempts, 10)) * 30 * time.Second
		return h.accounts.RechargeRetry(ctx, req, h.accounts.Now().Add(backoff), err)
	}
	if err != nil {
		// Not the provider's silence: a refusal this recharge cannot get
		// past (no customer, a price not the catalogue's). It fails.
		out = payments.RechargeOutcome{Status: payments.RechargeDeclined, Message: domain.ErrorMessage(err)}
	}
	md := eventstore.Metadata{Actor: "system:auto-recharge", CausationID: "recharge:" + req.RechargeID}
	if err := h.record(ctx, req, out, md); err != nil {
		return err
	}
	if err := h.accounts.RechargeCharged(ctx, req, out.PaymentIntentID); err != nil {
		return err
	}
	if err := h.report(ctx, req, out, md); err != nil {
		return err
	}
	h.queued()
	return nil
}

// record writes what out means for the account: a decline (or no card)
// counts a failure, a demand for authentication mails the payment link; a
// success or a charge still processing waits for the payment's report.
func (h RunRechargesHandler) record(ctx context.Context, req accounts.RechargeRequest, out payments.RechargeOutcome, md eventstore.Metadata) error {
	if out.Status != payments.RechargeDeclined && out.Status != payments.RechargeNoCardOnFile && out.Status != payments.RechargeNeedsAction {
		return nil
	}
	_, err := h.accounts.Change(ctx, req.AccountID, eventstore.UpdateOptions{Metadata: md},
		func(_ context.Context, _ accounts.Work, a *domain.Account, now time.Time) (any, error) {
			if out.Status == payments.RechargeNeedsAction {
				a.RechargeNeedsAuthentication(req.RechargeID, out.PaymentIntentID, now)
			} else {
				a.RechargeDeclined(req.RechargeID, out.PaymentIntentID, out.Message, now)
			}
			return nil, nil
		})
	return err
}

// report brings the outcome of a simulated provider's recharge to the
// ledger now, through the path of every payment's notification; Stripe
// reports by its webhook (ErrNotSimulated: nothing to do here).
func (h RunRechargesHandler) report(ctx context.Context, req accounts.RechargeRequest, out payments.RechargeOutcome, md eventstore.Metadata) error {
	n, ok, err := h.sim.sim.SimulateRecharge(ctx, req.AccountID, req.RechargeID, req.Credits, out, h.accounts.Now())
	if errors.Is(err, payments.ErrNotSimulated) || (err == nil && !ok) {
		return nil
	}
	if err != nil {
		return err
	}
	outcome := payments.OutcomeSucceeded
	if out.Status == payments.RechargeDeclined {
		outcome = payments.OutcomeFailed
	}
	_, err = h.sim.report(ctx, n, outcome, md)
	return err
}

// Run runs Handle every interval, in batches of 20 until a batch is short,
// until ctx ends; wake makes it run at once (a spend queued a recharge).
func (h RunRechargesHandler) Run(ctx context.Context, interval time.Duration, wake <-chan struct{}) {
	runInBatches(ctx, interval, wake, 20, func(ctx context.Context, limit int) (int, error) {
		return h.Handle(ctx, RunRecharges{Limit: limit})
	}, h.log, "run recharges")
}
