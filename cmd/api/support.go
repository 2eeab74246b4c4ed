package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/mail"
	"github.com/a2e-automation/app/internal/supportrequests"
)

// Support request bounds: the spec's minimums (section 5) and maximums of
// our own, so a request fits an email.
const (
	minSubject = 3
	maxSubject = 200
	minMessage = 10
	maxMessage = 5000
)

type supportRequest struct {
	Subject string `json:"subject"`
	Message string `json:"message"`
}

// Valid implements validator. Lengths count characters after trimming
// spaces, as the webapp does.
func (q supportRequest) Valid(context.Context) map[string]string {
	problems := map[string]string{}
	switch n := utf8.RuneCountInString(strings.TrimSpace(q.Subject)); {
	case n < minSubject:
		problems["subject"] = "Subject is required"
	case n > maxSubject:
		problems["subject"] = fmt.Sprintf("Subject must be at most %d characters", maxSubject)
	}
	switch n := utf8.RuneCountInString(strings.TrimSpace(q.Message)); {
	case n < minMessage:
		problems["message"] = "Please provide more details"
	case n > maxMessage:
		problems["message"] = fmt.Sprintf("Message must be at most %d characters", maxMessage)
	}
	return problems
}

// handleSupportRequest sends the signed-in seller's request to
// SUPPORT_EMAIL (replies going to the seller): verified accounts only, a
// few an hour (command.SupportLimits).
func handleSupportRequest(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, err := decode[supportRequest](r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		s := currentSession(r.Context())
		if err := d.Commands.SendSupportRequest.Handle(r.Context(), command.SendSupportRequest{AccountID: s.AccountID, Email: s.Email,
			Subject: strings.TrimSpace(req.Subject), Message: strings.TrimSpace(req.Message)}); err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusCreated, messageResponse{Message: "Support request submitted"})
	}
}

// supportMail is the mail of a support request to supportEmail: replies go
// to the seller.
func supportMail(supportEmail string) func(supportrequests.Request) mail.Message {
	return func(sr supportrequests.Request) mail.Message {
		return mail.Message{
			To: supportEmail, ReplyTo: sr.Email,
			Subject: "Support request: " + strings.Join(strings.Fields(sr.Subject), " "),
			Text:    fmt.Sprintf("From %s (account %s), request %s:\n\n%s\n", sr.Email, sr.AccountID, sr.ID, sr.Message),
		}
	}
}
