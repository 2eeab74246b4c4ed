package main

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/a2e-automation/app/internal/auth"
	"github.com/a2e-automation/app/internal/ratelimit"
)

// limitMFA throttles second-factor codes per staff member, as sign-in is
// throttled per account (auth_throttle.go): 5 tries at once, then one every
// 3 minutes, right or wrong, in the same limits store, failing closed.
var limitMFA = ratelimit.Limit{Name: "mfa", Rate: 5, Period: 15 * time.Minute}

const msgMFADown = "Second-factor checks are briefly unavailable. Please try again in a few seconds."

// mfaStatus tells the webapp where to send a staff member: enrol, enter a
// code, or the console.
type mfaStatus struct {
	Required bool `json:"required"` // staff: the console needs the second factor
	Enrolled bool `json:"enrolled"` // a second factor is set up
	Passed   bool `json:"passed"`   // this session has passed it
}

// mfaOf is sess's second-factor status; nil for a seller.
func mfaOf(sess auth.Session) *mfaStatus {
	if !sess.IsStaff {
		return nil
	}
	return &mfaStatus{Required: true, Enrolled: sess.MFAEnrolled, Passed: sess.MFAPassed}
}

// handleMFAEnroll starts the signed-in staff member's second factor: a new
// TOTP secret, its otpauth:// URL and recovery codes, shown this once.
// Refused (409) once enrolled: bin/api staff reset-mfa EMAIL resets it.
func handleMFAEnroll(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s := currentSession(r.Context())
		e, err := d.Auth.EnrollMFA(r.Context(), s.AccountID, s.Email, d.Config.ProductName, time.Now())
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		d.Log.InfoContext(r.Context(), "staff second factor enrolment started", "staff", staffActor(r))
		encode(w, http.StatusCreated, e)
	}
}

type mfaVerifyRequest struct {
	Code string `json:"code"`
}

// Valid implements validator.
func (q mfaVerifyRequest) Valid(context.Context) map[string]string {
	if n := utf8.RuneCountInString(strings.TrimSpace(q.Code)); n < 6 || n > 32 {
		return map[string]string{"code": "Enter the 6-digit code of your authenticator app, or a recovery code"}
	}
	return nil
}

type mfaVerifyResponse struct {
	Message           string       `json:"message"`
	User              userResponse `json:"user"`
	RecoveryCodesLeft int          `json:"recoveryCodesLeft"`
}

// handleMFAVerify checks a TOTP or recovery code, throttled per staff
// member, and renews the session as having passed the second factor: a new
// cookie, the old token ended.
func handleMFAVerify(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, err := decode[mfaVerifyRequest](r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		s := currentSession(r.Context())
		if !d.Limits.allow(w, r, check{Key: s.AccountID, Limit: limitMFA, TooMany: msgTooMany, Down: msgMFADown}) {
			return
		}
		v, err := d.Auth.VerifyMFA(r.Context(), s, req.Code, time.Now())
		if err != nil {
			if errors.Is(err, auth.ErrMFACodeInvalid) {
				d.Log.WarnContext(r.Context(), "staff second factor refused", "staff", staffActor(r))
			}
			writeError(w, r, d.Log, err)
			return
		}
		d.Log.InfoContext(r.Context(), "staff second factor passed", "staff", staffActor(r), "recoveryCode", v.RecoveryCodeUsed, "enrolled", v.Enrolled)
		setSessionCookie(w, d, v.Token) // the token the code came with has ended
		user, err := userOf(r.Context(), d, s.AccountID, s.Email, true)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		user.MFA = &mfaStatus{Required: true, Enrolled: true, Passed: true}
		msg := "Second factor accepted"
		if v.RecoveryCodeUsed {
			msg = "Recovery code accepted; it cannot be used again"
		}
		encode(w, http.StatusOK, mfaVerifyResponse{Message: msg, User: user, RecoveryCodesLeft: v.RecoveryCodesLeft})
	}
}
