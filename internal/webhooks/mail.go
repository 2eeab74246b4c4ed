package webhooks

import (
	"fmt"

	"github.com/a2e-automation/app/internal/mail"
)

// DisabledMail composes the mail that tells a seller an endpoint was
// disabled; product is PRODUCT_NAME, baseURL APP_BASE_URL.
func DisabledMail(product, baseURL string) func(to, url, reason string) mail.Message {
	return func(to, url, reason string) mail.Message {
		return mail.Message{
			To:      to,
			Subject: fmt.Sprintf("Your %s webhook endpoint was disabled", product),
			Text: fmt.Sprintf("We could not deliver events to your webhook endpoint %s for three days (%s), so we disabled it "+
				"and stopped sending to it.\n\nOnce it works again, remove it and add it again on your dashboard: %s/webhooks\n\n"+
				"Thank you,\nThe %s team\n", url, reason, baseURL, product),
		}
	}
}
