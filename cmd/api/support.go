package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

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

// handleSupportRequest stores the signed-in seller's request and queues its
// mail to SUPPORT_EMAIL (replies going to the seller) in the same
// transaction; the mail sender delivers it, retrying through outages.
func handleSupportRequest(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, err := decode[supportRequest](r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		s := currentSession(r.Context())
		_, err = d.Support.Create(r.Context(), s.AccountID, s.Email, strings.TrimSpace(req.Subject), strings.TrimSpace(req.Message), time.Now(),
			func(sr supportrequests.Request) mail.Message {
				return mail.Message{
					To: d.Config.SupportEmail, ReplyTo: sr.Email,
					Subject: "Support request: " + strings.Join(strings.Fields(sr.Subject), " "),
					Text:    fmt.Sprintf("From %s (account %s), request %s:\n\n%s\n", sr.Email, sr.AccountID, sr.ID, sr.Message),
				}
			})
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		d.Mail.Nudge()
		encode(w, http.StatusCreated, messageResponse{Message: "Support request submitted"})
	}
}
