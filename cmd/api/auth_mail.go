package main

import (
	"fmt"
	"net/url"

	"github.com/a2e-automation/app/internal/auth"
	"github.com/a2e-automation/app/internal/mail"
)

// verificationMail carries a verification code; product is PRODUCT_NAME.
func verificationMail(product, to, code string) mail.Message {
	return mail.Message{
		To:       to,
		ValidFor: auth.CodeTTL, // a code delivered later is no use
		Subject:  "Your " + product + " verification code",
		Text: fmt.Sprintf("Your verification code is %s.\n\n"+
			"Enter it on the Verify Email page within %d minutes. "+
			"If you did not create an account with %s, you can ignore this email.\n", code, int(auth.CodeTTL.Minutes()), product),
	}
}

// resetMail carries a password reset link; product is PRODUCT_NAME.
func resetMail(product, baseURL, to, token string) mail.Message {
	link := baseURL + "/reset-password/complete?token=" + url.QueryEscape(token)
	return mail.Message{
		To:       to,
		ValidFor: auth.ResetTTL,
		Subject:  "Reset your " + product + " password",
		Text: fmt.Sprintf("We received a request to reset your %s password. Open this link within %d minutes to choose a new one:\n\n%s\n\n"+
			"If you did not ask for this, you can ignore this email: your password stays the same.\n", product, int(auth.ResetTTL.Minutes()), link),
	}
}
