package main

import (
	"context"
	"net/http"
	"strings"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/payments"
)

// staffReasonProblem is the "reason" field's problem under the one staff
// reason rule (domain.StaffReason), "" for none.
func staffReasonProblem(reason string) string {
	if _, err := domain.StaffReason(reason); err != nil {
		return domain.ErrorMessage(err)
	}
	return ""
}

// staffActionResponse is the answer of a refund or cancellation: applied
// (the simulated provider; the history shows it) or requested (Stripe took
// it; the history shows it when its webhook arrives).
type staffActionResponse struct {
	Status      string `json:"status"`
	Message     string `json:"message"`
	AmountCents int64  `json:"amountCents,omitempty"`
	RefundID    string `json:"refundId,omitempty"`
	Replayed    bool   `json:"replayed,omitempty"`
}

func writeStaffAction(d Deps, w http.ResponseWriter, r *http.Request, out payments.StaffAction) {
	status := http.StatusAccepted
	if out.Status == payments.StaffActionApplied {
		awaitProjections(d, r, out.Position)
		status = http.StatusOK
	}
	encode(w, status, staffActionResponse{Status: out.Status, Message: out.Message, AmountCents: out.AmountCents,
		RefundID: out.RefundID, Replayed: out.Replayed})
}

type staffRefundRequest struct {
	PaymentID string `json:"paymentId"`
	Credits   *int64 `json:"credits"`
	Reason    string `json:"reason"`
}

// Valid implements validator.
func (q staffRefundRequest) Valid(context.Context) map[string]string {
	p := map[string]string{}
	if n := len(strings.TrimSpace(q.PaymentID)); n == 0 || n > 255 {
		p["paymentId"] = "The payment to refund is required"
	}
	if q.Credits != nil && *q.Credits < 1 {
		p["credits"] = "Credits to refund must be a whole number of at least 1, or left out to refund what is left"
	}
	if msg := staffReasonProblem(q.Reason); msg != "" {
		p["reason"] = msg
	}
	return p
}

// handleStaffRefund refunds a payment of the account through the payment
// provider; an Idempotency-Key (read with the body by decodeMetered) makes
// a retry refund once.
func handleStaffRefund(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := accountParam(r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		req, idem, err := decodeMetered[staffRefundRequest](r, payments.StaffRefundKeyPrefix)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		if idem.key == "" {
			writeError(w, r, d.Log, invalid(map[string]string{"Idempotency-Key": "An Idempotency-Key header is required: one per refund, the same on a retry"}))
			return
		}
		out, err := d.App.Commands.StaffRefund.Handle(r.Context(), command.StaffRefund{
			StaffID: currentSession(r.Context()).AccountID, AccountID: id, PaymentID: strings.TrimSpace(req.PaymentID),
			Credits: req.Credits, Reason: strings.TrimSpace(req.Reason), IdempotencyKey: idem.key, RequestID: requestID(r.Context()),
		})
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		d.Log.InfoContext(r.Context(), "staff refund", "staff", staffActor(r), "account", id, "payment", req.PaymentID, "cents", out.AmountCents)
		writeStaffAction(d, w, r, out)
	}
}

type staffCancelRequest struct {
	AtPeriodEnd *bool  `json:"atPeriodEnd"`
	Reason      string `json:"reason"`
}

// Valid implements validator.
func (q staffCancelRequest) Valid(context.Context) map[string]string {
	p := map[string]string{}
	if q.AtPeriodEnd == nil {
		p["atPeriodEnd"] = "Say whether to cancel at the period end (true) or now (false)"
	}
	if msg := staffReasonProblem(q.Reason); msg != "" {
		p["reason"] = msg
	}
	return p
}

// handleStaffCancelSubscription cancels the account's subscription through
// the payment provider, at the period end or now.
func handleStaffCancelSubscription(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := accountParam(r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		req, err := decode[staffCancelRequest](r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		out, err := d.App.Commands.StaffCancelSubscription.Handle(r.Context(), command.StaffCancelSubscription{
			StaffID: currentSession(r.Context()).AccountID, AccountID: id, AtPeriodEnd: *req.AtPeriodEnd, Reason: strings.TrimSpace(req.Reason),
			RequestID: requestID(r.Context()),
		})
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		d.Log.InfoContext(r.Context(), "staff cancellation", "staff", staffActor(r), "account", id, "atPeriodEnd", *req.AtPeriodEnd)
		writeStaffAction(d, w, r, out)
	}
}
