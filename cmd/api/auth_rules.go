package main

import (
	"errors"

	"github.com/a2e-automation/app/domain"
)

// The spec's validation messages (section 5).
const (
	msgEmail           = domain.MsgInvalidEmail
	msgPassword        = domain.MsgPasswordLength
	msgNewPasswordLen  = domain.MsgNewPasswordLength
	msgNewPasswordUp   = domain.MsgNewPasswordUpper
	msgNewPasswordSym  = domain.MsgNewPasswordSymbol
	msgPasswordsDiffer = "Passwords do not match"
	msgCode            = "Please enter the 6-digit verification code"
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
	if p := domain.PasswordProblem(password); p != "" {
		problems["password"] = p
	}
	return problems
}

// signUpProblems checks sign-up's email and password: sign-in's rules, a
// new address's rule, and a password that is not too easy to guess.
func signUpProblems(email, password string) map[string]string {
	problems := credentialProblems(email, password)
	var de *domain.Error
	if problems["email"] == "" && errors.As(domain.CheckNewEmail(email), &de) {
		problems["email"] = de.Message // a look-alike name (mixed scripts)
	}
	if problems["password"] == "" {
		if p := domain.GuessablePasswordProblem(password, email); p != "" {
			problems["password"] = p
		}
	}
	return problems
}

// newPasswordProblem is the first rule a new password breaks, or "" (the
// domain's rules).
func newPasswordProblem(pw string) string {
	if p := domain.NewPasswordProblem(pw); p != "" {
		return p
	}
	return domain.GuessablePasswordProblem(pw, "")
}

// confirmProblem checks an optional confirmation: the webapp checks it
// itself and does not send it, other clients may.
func confirmProblem(password string, confirm *string, problems map[string]string) {
	if confirm != nil && *confirm != password {
		problems["confirmPassword"] = msgPasswordsDiffer
	}
}
