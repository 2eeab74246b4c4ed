package main

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/a2e-automation/app/internal/mail"
)

// Helpers for the sign-in tests of the browser API.

const testPassword = "correct-horse-battery"

// cookie returns the session cookie the response set, or nil.
func (r response) cookie() *http.Cookie {
	for _, c := range (&http.Response{Header: r.header}).Cookies() {
		if c.Name == sessionCookie || c.Name == hostCookie {
			return c
		}
	}
	return nil
}

// errorFields is an error answer.
type errorFields struct {
	Message string            `json:"message"`
	Errors  map[string]string `json:"errors"`
	Success *bool             `json:"success"`
}

func (r response) problem(t *testing.T) errorFields {
	t.Helper()
	var b errorFields
	r.json(t, &b)
	return b
}

// registered is an account signed up through the API.
type registered struct {
	ID, Email string
	Cookie    *http.Cookie
}

// register signs email up with testPassword.
func (e *testEnv) register(email string) registered {
	e.t.Helper()
	res := e.do(request{method: "POST", path: "/api/register", body: map[string]string{"email": email, "password": testPassword}})
	if res.status != http.StatusCreated {
		e.t.Fatalf("register %s = %d %s", email, res.status, res.body)
	}
	var b authResponse
	res.json(e.t, &b)
	return registered{ID: b.User.ID, Email: b.User.Email, Cookie: res.cookie()}
}

// mailTo lists the dev mailbox of to once every queued reset and mail has
// been handled (both go out after the answer).
func (e *testEnv) mailTo(to string) []mail.Captured {
	e.t.Helper()
	e.resetsHandled()
	e.mailSettled()
	res := e.do(request{method: "GET", path: "/api/dev/mail?to=" + to})
	if res.status != http.StatusOK {
		e.t.Fatalf("dev mail = %d %s", res.status, res.body)
	}
	var list []mail.Captured
	res.json(e.t, &list)
	return list
}

var codePattern = regexp.MustCompile(`\b\d{6}\b`)

// code is the verification code in the newest mail to to.
func (e *testEnv) code(to string) string {
	e.t.Helper()
	for _, m := range e.mailTo(to) {
		if strings.Contains(m.Subject, "verification code") {
			if c := codePattern.FindString(m.Text); c != "" {
				return c
			}
		}
	}
	e.t.Fatalf("no verification code mailed to %s", to)
	return ""
}
