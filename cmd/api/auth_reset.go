package main

import (
	"context"
	"net/http"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/app/command"
)

type resetRequest struct {
	Email string `json:"email"`
}

func (q *resetRequest) normalize() { q.Email = domain.NormalizeEmail(q.Email) }

// Valid implements validator.
func (q resetRequest) Valid(context.Context) map[string]string {
	if !validEmail(q.Email) {
		return map[string]string{"email": msgEmail}
	}
	return nil
}

// handleResetRequest queues a reset for the email; the reset worker mails
// a link when an account has it, within the per-address limits. The work
// and the answer are the same whether or not the address is known.
func handleResetRequest(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, err := decode[resetRequest](r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		if err := d.Auth.RequestReset(r.Context(), req.Email, time.Now()); err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		d.Resets.Nudge()
		encode(w, http.StatusOK, messageResponse{Message: "If an account exists for that email, we've sent instructions to reset your password."})
	}
}

// msgResetToken answers a missing, unknown, used or expired reset token.
const msgResetToken = "Invalid or missing reset token. Please request a new password reset link."

type resetCompleteRequest struct {
	Token           string  `json:"token"`
	NewPassword     string  `json:"newPassword"`
	ConfirmPassword *string `json:"confirmPassword,omitempty"`
}

// Valid implements validator.
func (q resetCompleteRequest) Valid(context.Context) map[string]string {
	problems := map[string]string{}
	if q.Token == "" {
		problems["token"] = msgResetToken
	}
	if msg := newPasswordProblem(q.NewPassword); msg != "" {
		problems["newPassword"] = msg
	}
	confirmProblem(q.NewPassword, q.ConfirmPassword, problems)
	return problems
}

type resetCompleteResponse struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

// handleResetComplete sets a new password with a reset token, once
// (command.CompleteResetHandler). Failures carry success: false, which the
// webapp reads.
func handleResetComplete(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, err := decode[resetCompleteRequest](r)
		if err != nil {
			writeError(w, r, d.Log, withSuccessFalse(err))
			return
		}
		res, err := d.App.Commands.CompleteReset.Handle(r.Context(), command.CompleteReset{
			Token: req.Token, NewPassword: req.NewPassword, Metadata: metadata(r, ""),
		})
		if err != nil {
			writeError(w, r, d.Log, withSuccessFalse(err))
			return
		}
		awaitProjections(d, r, res.LastPosition)
		encode(w, http.StatusOK, resetCompleteResponse{
			Success: true, Message: "Your password has been reset. You can now sign in with your new password.",
		})
	}
}
