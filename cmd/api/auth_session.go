package main

import (
	"context"
	"net/http"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/app/command"
)

// userResponse is the signed-in user as the webapp keeps it.
type userResponse struct {
	ID         string `json:"id"`
	Email      string `json:"email"`
	IsVerified bool   `json:"isVerified"`
	IsStaff    bool   `json:"isStaff"` // the webapp shows the staff console to staff only
	// MFA is a staff member's second factor (null for sellers): whether
	// this session still has to enrol or enter a code before the console.
	MFA *mfaStatus `json:"mfa"`
}

// authResponse answers a sign-up or sign-in. Token is the session's
// secret, also set as the HttpOnly cookie that authenticates later calls
// (the spec names it in the answer; docs/auth.md).
type authResponse struct {
	Token   string       `json:"token"`
	User    userResponse `json:"user"`
	Message string       `json:"message"`
}

// userOf is account accountID as the webapp sees it; isStaff comes from
// the session, or from the users table at sign-in. A profile the projector
// has not written yet belongs to an account just registered, hence not
// verified.
func userOf(ctx context.Context, d Deps, accountID, email string, isStaff bool) (userResponse, error) {
	verified, err := d.App.Queries.Verified.Handle(ctx, accountID)
	if err != nil {
		return userResponse{}, err
	}
	return userResponse{ID: accountID, Email: email, IsVerified: verified, IsStaff: isStaff}, nil
}

// startSession signs accountID in: it ends the session the request came
// with, if any, starts a new one and sets its cookie.
func startSession(w http.ResponseWriter, r *http.Request, d Deps, accountID string) (string, error) {
	token, err := d.Auth.StartSession(r.Context(), sessionToken(d, r), accountID, time.Now())
	if err != nil {
		return "", err
	}
	setSessionCookie(w, d, token)
	return token, nil
}

type registerRequest struct {
	Email           string  `json:"email"`
	Password        string  `json:"password"`
	ConfirmPassword *string `json:"confirmPassword,omitempty"`
}

func (q *registerRequest) normalize() { q.Email = domain.NormalizeEmail(q.Email) }

// Valid implements validator.
func (q registerRequest) Valid(context.Context) map[string]string {
	problems := signUpProblems(q.Email, q.Password)
	confirmProblem(q.Password, q.ConfirmPassword, problems)
	return problems
}

// handleRegister opens an account with its API key, signs it in and mails
// the first verification code (command.RegisterHandler), then sets the
// session's cookie.
func handleRegister(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, err := decode[registerRequest](r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		s, err := d.App.Commands.Register.Handle(r.Context(), command.Register{
			Email: req.Email, Password: req.Password, PreviousSession: sessionToken(d, r), Metadata: metadata(r, "signup"),
		})
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		setSessionCookie(w, d, s.SessionToken)
		awaitProjections(d, r, s.Result.LastPosition)
		encode(w, http.StatusCreated, authResponse{
			Token: s.SessionToken, User: userResponse{ID: s.AccountID, Email: s.Email},
			Message: "Registration successful. Please verify your email.",
		})
	}
}

type loginRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

func (q *loginRequest) normalize() { q.Email = domain.NormalizeEmail(q.Email) }

// Valid implements validator.
func (q loginRequest) Valid(context.Context) map[string]string {
	return credentialProblems(q.Email, q.Password)
}

// handleLogin signs in with email and password; a wrong email and a wrong
// password get the same answer in about the same time.
func handleLogin(d Deps, t throttles) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, err := decode[loginRequest](r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		if t.limitAccount(w, r, req.Email) {
			return
		}
		id, email, err := d.Auth.Authenticate(r.Context(), req.Email, req.Password)
		if err != nil { // bad credentials are the domain's CodeUnauthorized
			writeError(w, r, d.Log, err)
			return
		}
		staff, err := d.Auth.IsStaff(r.Context(), id)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		user, err := userOf(r.Context(), d, id, email, staff)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		if staff { // a new session, which has not passed the second factor
			enrolled, err := d.Auth.MFAEnrolled(r.Context(), id)
			if err != nil {
				writeError(w, r, d.Log, err)
				return
			}
			user.MFA = &mfaStatus{Required: true, Enrolled: enrolled}
		}
		token, err := startSession(w, r, d, id)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, authResponse{Token: token, User: user, Message: "Signed in"})
	}
}

type messageResponse struct {
	Message string `json:"message"`
}

// handleLogout ends the request's session, if any, and clears the cookie.
func handleLogout(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if token := sessionToken(d, r); token != "" {
			if err := d.Auth.DeleteSession(r.Context(), token); err != nil {
				writeError(w, r, d.Log, err)
				return
			}
		}
		clearSessionCookie(w, d)
		encode(w, http.StatusOK, messageResponse{Message: "Logged out"})
	}
}

// handleUser answers the signed-in user.
func handleUser(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s := currentSession(r.Context())
		user, err := userOf(r.Context(), d, s.AccountID, s.Email, s.IsStaff)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		user.MFA = mfaOf(s)
		encode(w, http.StatusOK, user)
	}
}
