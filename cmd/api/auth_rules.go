package main

import (
	"strings"
	"unicode/utf8"

	"github.com/a2e-automation/app/domain"
)

// The spec's validation messages (section 5).
const (
	msgEmail           = domain.MsgInvalidEmail
	msgPassword        = "Password must be at least 8 characters"
	msgPasswordsDiffer = "Passwords do not match"
	msgNewPasswordLen  = "Password must be at least 10 characters long"
	msgNewPasswordUp   = "Password must contain at least one uppercase letter"
	msgNewPasswordSym  = "Password must contain at least one special character"
	msgCode            = "Please enter the 6-digit verification code"
)

// Password lengths (spec section 9) and the characters that count as
// special in a new password (section 5).
const (
	minPassword    = 8
	minNewPassword = 10
	specialChars   = `!@#$%^&*(),.?":{}|<>`
)

// validEmail reports whether s, already normalised by the request's
// normalize, passes the domain's one email rule.
func validEmail(s string) bool { return domain.CheckEmail(s) == nil }

// credentialProblems checks the email and password of sign-in and sign-up.
func credentialProblems(email, password string) map[string]string {
	problems := map[string]string{}
	if !validEmail(email) {
		problems["email"] = msgEmail
	}
	if utf8.RuneCountInString(password) < minPassword {
		problems["password"] = msgPassword
	}
	return problems
}

// newPasswordProblem is the first rule a new password breaks, or "".
func newPasswordProblem(pw string) string {
	switch {
	case utf8.RuneCountInString(pw) < minNewPassword:
		return msgNewPasswordLen
	case !strings.ContainsFunc(pw, func(r rune) bool { return r >= 'A' && r <= 'Z' }):
		return msgNewPasswordUp
	case !strings.ContainsAny(pw, specialChars):
		return msgNewPasswordSym
	}
	return ""
}

// confirmProblem checks an optional confirmation: the webapp checks it
// itself and does not send it, other clients may.
func confirmProblem(password string, confirm *string, problems map[string]string) {
	if confirm != nil && *confirm != password {
		problems["confirmPassword"] = msgPasswordsDiffer
	}
}

// validCode reports whether s is a 6-digit verification code.
func validCode(s string) bool {
	if len(s) != 6 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
