package domain

import (
	_ "embed"
	"strings"
	"sync"
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

// Passwords too easy to guess are refused where a password is chosen
// (sign-up and reset, never sign-in: ASVS 2.1.7): the 10,000 most common of
// at least MinPassword characters, one character or two repeated
// (aaaaaaaa, abababab), and the account's email address.
const (
	MsgPasswordCommon  = "This password is too common and easy to guess. Please choose another."
	MsgPasswordIsEmail = "Password must not contain your email address"
)

//go:embed common-passwords.txt
var commonPasswordsFile string

// commonPasswords is the set of common-passwords.txt's lines, lowercase,
// built at the first use.
var commonPasswords = sync.OnceValue(func() map[string]struct{} {
	set := make(map[string]struct{}, 10_000)
	for _, line := range strings.Split(commonPasswordsFile, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			set[line] = struct{}{}
		}
	}
	return set
})

// GuessablePasswordProblem is why pw, chosen for the account with email
// (empty: unknown), is too easy to guess, or "". It checks what the length
// rule does not; run PasswordProblem or NewPasswordProblem first.
func GuessablePasswordProblem(pw, email string) string {
	p := strings.ToLower(strings.TrimSpace(pw))
	if e := strings.ToLower(strings.TrimSpace(email)); e != "" && strings.Contains(p, e) {
		return MsgPasswordIsEmail
	}
	if _, ok := commonPasswords()[p]; ok {
		return MsgPasswordCommon
	}
	distinct := map[rune]bool{}
	for _, r := range p {
		distinct[r] = true
	}
	if len(distinct) < 3 {
		return MsgPasswordCommon
	}
	return ""
}
