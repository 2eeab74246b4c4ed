package main

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strconv"

	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/auth"
)

type verifyRequest struct {
	Code string `json:"code"`
}

// Valid implements validator.
func (q verifyRequest) Valid(context.Context) map[string]string {
	if !validCode(q.Code) {
		return map[string]string{"code": msgCode}
	}
	return nil
}

type verifyResponse struct {
	Message string       `json:"message"`
	User    userResponse `json:"user"`
}

// codeRefusals are the answers to a refused verification code.
var codeRefusals = map[error]string{
	auth.ErrCodeInvalid:  "Invalid verification code",
	auth.ErrCodeExpired:  "Verification code has expired. Please request a new one.",
	auth.ErrCodeAttempts: "Too many attempts. Please request a new code.",
}

// handleVerifyEmail checks the signed-in account's code and records
// EmailVerified (command.VerifyEmailHandler).
func handleVerifyEmail(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, err := decode[verifyRequest](r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		s := currentSession(r.Context())
		res, err := d.Commands.VerifyEmail.Handle(r.Context(), command.VerifyEmail{
			AccountID: s.AccountID, Code: req.Code, Metadata: metadata(r, "account:"+s.AccountID),
		})
		for refusal, msg := range codeRefusals {
			if errors.Is(err, refusal) {
				err = errStatus(http.StatusBadRequest, "%s", msg)
			}
		}
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		awaitProjections(d, r, res.LastPosition)
		encode(w, http.StatusOK, verifyResponse{
			Message: "Your email has been verified.",
			User:    userResponse{ID: s.AccountID, Email: s.Email, IsVerified: true, IsStaff: s.IsStaff},
		})
	}
}

// msgCodeOnItsWay answers a resend: the code is queued, and the mail
// sender delivers it within seconds, or retries while the mail server is
// away.
const msgCodeOnItsWay = "A new verification code is on its way to your email."

// handleResendVerification mails the signed-in, unverified account a new
// code, at most once per auth.ResendInterval.
func handleResendVerification(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s := currentSession(r.Context())
		user, err := userOf(r.Context(), d, s.AccountID, s.Email, s.IsStaff)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		if user.IsVerified {
			writeError(w, r, d.Log, errStatus(http.StatusConflict, "Email is already verified"))
			return
		}
		err = d.Commands.SendVerificationCode.Handle(r.Context(), command.SendVerificationCode{AccountID: s.AccountID, Email: s.Email})
		var soon *auth.TooSoonError
		if errors.As(err, &soon) {
			secs := int(math.Ceil(soon.RetryAfter.Seconds()))
			w.Header().Set("Retry-After", strconv.Itoa(secs))
			err = errStatus(http.StatusTooManyRequests, "Please wait %d seconds before requesting a new code.", secs)
		}
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, messageResponse{Message: msgCodeOnItsWay})
	}
}
