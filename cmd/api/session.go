package main

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/a2e-automation/app/internal/auth"
)

// sessionCookie is the name of the session cookie in development. Elsewhere
// it is hostCookie: browsers keep a __Host- cookie only when this host set
// it Secure on Path=/ without a Domain, so a sibling subdomain cannot plant
// or overwrite a session.
const (
	sessionCookie = "a2e_session"
	hostCookie    = "__Host-" + sessionCookie
)

// signedOutHint is a cookie script may read, holding no secret: "1" when
// this browser holds no session cookie. The webapp reads it before asking
// GET /api/user, so a signed-out page makes no request that can only answer
// 401 (and log an error in the console); with a session cookie, or with no
// hint at all, it asks as the spec says. The server sets it on every
// document it serves without a session cookie and at sign-out, and removes
// it when it sets a session.
const signedOutHint = "a2e_signed_out"

func setSignedOutHint(w http.ResponseWriter, d Deps, signedOut bool) {
	c := &http.Cookie{Name: signedOutHint, Value: "1", Path: "/", SameSite: http.SameSiteLaxMode, Secure: !d.Config.IsDevelopment()}
	if !signedOut {
		c.Value, c.MaxAge = "", -1
	}
	http.SetCookie(w, c)
}

// syncSignedOutHint makes the hint say whether the request carries a session
// cookie (whether that session is still live is GET /api/user's answer).
func syncSignedOutHint(w http.ResponseWriter, r *http.Request, d Deps) {
	_, hinted := r.Cookie(signedOutHint)
	hasSession := sessionToken(d, r) != ""
	if hasSession == (hinted == nil) {
		setSignedOutHint(w, d, !hasSession)
	}
}

func sessionCookieName(d Deps) string {
	if d.Config.IsDevelopment() {
		return sessionCookie
	}
	return hostCookie
}

// setSessionCookie sends the session token: HttpOnly, SameSite=Lax, Secure
// and __Host- outside development. The cookie lives as long as a session can;
// the server ends it sooner when it sits idle.
func setSessionCookie(w http.ResponseWriter, d Deps, token string) {
	noStore(w)
	setSignedOutHint(w, d, false) // first: a client keeping the last Set-Cookie keeps the session
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookieName(d), Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: !d.Config.IsDevelopment(), MaxAge: int(auth.SessionTTL / time.Second),
	})
}

func clearSessionCookie(w http.ResponseWriter, d Deps) {
	noStore(w)
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookieName(d), Value: "", Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: !d.Config.IsDevelopment(), MaxAge: -1,
	})
	setSignedOutHint(w, d, true)
}

// noStore keeps an answer out of every cache (browser, proxy, back button):
// authenticated answers carry an account's data, the profile its API key.
func noStore(w http.ResponseWriter) { w.Header()["Cache-Control"] = noStoreValue }

// noStoreValue is Cache-Control: no-store, made once.
var noStoreValue = headerValue("no-store")

// sessionToken is the token from the cookie.
func sessionToken(d Deps, r *http.Request) string {
	if c, err := r.Cookie(sessionCookieName(d)); err == nil {
		return c.Value
	}
	return ""
}

// requireSession answers 401 without a live session, else puts it in the
// request's context.
func requireSession(d Deps) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			noStore(w)
			sess, err := d.Auth.Session(r.Context(), sessionToken(d, r), time.Now())
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
