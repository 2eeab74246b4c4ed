package main

import (
	"fmt"
	"net/url"

	"github.com/a2e-automation/app/internal/auth"
	"github.com/a2e-automation/app/internal/mail"
)

// verificationMail carries a verification code.
func verificationMail(to, code string) mail.Message {
	return mail.Message{
		To:       to,
		ValidFor: auth.CodeTTL, // a code delivered later is no use
		Subject:  "Your A2E Automation verification code",
		Text: fmt.Sprintf("Your verification code is %s.\n\n"+
			"Enter it on the Verify Email page within %d minutes. "+
			"If you did not create an A2E Automation account, you can ignore this email.\n", code, int(auth.CodeTTL.Minutes())),
	}
}

// resetMail carries a password reset link.
func resetMail(baseURL, to, token string) mail.Message {
	link := baseURL + "/reset-password/complete?token=" + url.QueryEscape(token)
	return mail.Message{
		To:       to,
		ValidFor: auth.ResetTTL,
		Subject:  "Reset your A2E Automation password",
		Text: fmt.Sprintf("We received a request to reset your password. Open this link within %d minutes to choose a new one:\n\n%s\n\n"+
			"If you did not ask for this, you can ignore this email: your password stays the same.\n", int(auth.ResetTTL.Minutes()), link),
	}
}
