package domain

import (
	"strings"
	"unicode/utf8"
)

// The password rules (spec sections 5 and 9), beside the account they
// protect: at least 8 characters to sign up and sign in; a new password
// chosen through a reset needs 10, an uppercase letter and a special
// character. The messages are the spec's.
const (
	MinPassword    = 8
	MinNewPassword = 10
	// PasswordSpecials are the characters that count as special.
	PasswordSpecials = `!@#$%^&*(),.?":{}|<>`

	MsgPasswordLength    = "Password must be at least 8 characters"
	MsgNewPasswordLength = "Password must be at least 10 characters long"
	MsgNewPasswordUpper  = "Password must contain at least one uppercase letter"
	MsgNewPasswordSymbol = "Password must contain at least one special character"
)

// PasswordProblem is the rule a sign-up or sign-in password breaks, or "".
func PasswordProblem(pw string) string {
	if utf8.RuneCountInString(pw) < MinPassword {
		return MsgPasswordLength
	}
	return ""
}

// NewPasswordProblem is the first rule a new (reset) password breaks, or "".
func NewPasswordProblem(pw string) string {
	switch {
	case utf8.RuneCountInString(pw) < MinNewPassword:
		return MsgNewPasswordLength
	case !strings.ContainsFunc(pw, func(r rune) bool { return r >= 'A' && r <= 'Z' }):
		return MsgNewPasswordUpper
	case !strings.ContainsAny(pw, PasswordSpecials):
		return MsgNewPasswordSymbol
	}
	return ""
}
