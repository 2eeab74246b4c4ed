package main

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/a2e-automation/app/internal/auth"
)

// sessionCookie is the name of the session cookie.
const sessionCookie = "a2e_session"

// setSessionCookie sends the session token: HttpOnly, SameSite=Lax, Secure
// outside development.
func setSessionCookie(w http.ResponseWriter, d Deps, token string) {
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: !d.Config.IsDevelopment(), MaxAge: int(auth.SessionTTL / time.Second),
	})
}

func clearSessionCookie(w http.ResponseWriter, d Deps) {
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: "", Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: !d.Config.IsDevelopment(), MaxAge: -1,
	})
}

// sessionToken is the token from the cookie.
func sessionToken(r *http.Request) string {
	if c, err := r.Cookie(sessionCookie); err == nil {
		return c.Value
	}
	return ""
}

// requireSession answers 401 without a live session, else puts it in the
// request's context.
func requireSession(d Deps) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			sess, err := d.Auth.Session(r.Context(), sessionToken(r), time.Now())
			if errors.Is(err, auth.ErrNoSession) {
				writeError(w, r, d.Log, errStatus(http.StatusUnauthorized, "Not signed in"))
				return
			}
			if err != nil {
				writeError(w, r, d.Log, err)
				return
			}
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), sessionKey, sess)))
		})
	}
}

// currentSession is the session requireSession put in ctx.
func currentSession(ctx context.Context) auth.Session {
	s, _ := ctx.Value(sessionKey).(auth.Session)
	return s
}
