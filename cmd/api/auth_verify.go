package main

import (
	"context"
	"net/http"

	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/auth"
)

type verifyRequest struct {
	Code string `json:"code"`
}

// Valid implements validator.
func (q verifyRequest) Valid(context.Context) map[string]string {
	if !auth.IsSixDigits(q.Code) {
		return map[string]string{"code": msgCode}
	}
	return nil
}

type verifyResponse struct {
	Message string       `json:"message"`
	User    userResponse `json:"user"`
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
		res, err := d.App.Commands.VerifyEmail.Handle(r.Context(), command.VerifyEmail{
			AccountID: s.AccountID, Code: req.Code, Metadata: metadata(r, "account:"+s.AccountID),
		})
		if err != nil { // a refused code is the domain's CodeInvalid, with the spec's message
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
		err = d.App.Commands.SendVerificationCode.Handle(r.Context(), command.SendVerificationCode{AccountID: s.AccountID, Email: s.Email})
		if err != nil { // too soon is the domain's CodeRateLimited: 429 with Retry-After
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, messageResponse{Message: msgCodeOnItsWay})
	}
}
