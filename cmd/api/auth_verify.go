package main

import (
	"context"
	"errors"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/auth"
	"github.com/a2e-automation/app/internal/mail"
)

// sendVerificationCode replaces the account's code with a new one and
// queues its mail; the mail sender delivers it after commit.
func sendVerificationCode(ctx context.Context, d Deps, accountID, email string) error {
	err := d.Auth.IssueVerificationCode(ctx, accountID, time.Now(), func(code string) mail.Message {
		return verificationMail(d.Config.ProductName, email, code)
	})
	if err == nil {
		d.Mail.Nudge()
	}
	return err
}

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
// EmailVerified. The check and the event share the account's transaction;
// a refused code commits only its counted try.
func handleVerifyEmail(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, err := decode[verifyRequest](r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		s := currentSession(r.Context())
		var refused error
		res, err := d.Accounts.Update(r.Context(), s.AccountID, eventstore.UpdateOptions{Metadata: metadata(r, "account:"+s.AccountID)},
			func(ctx context.Context, tx pgx.Tx, a *domain.Account, now time.Time) (any, error) {
				if a.IsVerified() {
					return nil, a.VerifyEmail(now) // the domain's conflict: already verified
				}
				if refused = d.Auth.UseVerificationCode(ctx, tx, s.AccountID, req.Code, now); refused != nil {
					return nil, nil
				}
				return nil, a.VerifyEmail(now)
			})
		if err == nil && refused != nil {
			err = refused
			if msg, ok := codeRefusals[refused]; ok {
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
		err = sendVerificationCode(r.Context(), d, s.AccountID, s.Email)
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
