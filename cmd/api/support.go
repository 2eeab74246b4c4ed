package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"
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
		if err := d.App.Commands.SendSupportRequest.Handle(r.Context(), command.SendSupportRequest{AccountID: s.AccountID, Email: s.Email,
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

// sellerSupportRequest is one of the seller's own requests with the
// replies to it, as GET /api/support/requests lists them. Staff addresses
// are not shown: a reply is from support.
type sellerSupportRequest struct {
	ID        string               `json:"id"`
	Subject   string               `json:"subject"`
	Message   string               `json:"message"`
	Status    string               `json:"status"`
	CreatedAt time.Time            `json:"createdAt"`
	Replies   []sellerSupportReply `json:"replies"`
}

type sellerSupportReply struct {
	Message   string    `json:"message"`
	CreatedAt time.Time `json:"createdAt"`
}

// handleSupportRequests lists the signed-in seller's latest requests,
// newest first, each with its replies.
func handleSupportRequests(d Deps) http.HandlerFunc {
	type response struct {
		Requests []sellerSupportRequest `json:"requests"`
	}
	return func(w http.ResponseWriter, r *http.Request) {
		threads, err := d.App.Queries.SupportRequests.Handle(r.Context(), currentSession(r.Context()).AccountID)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		out := response{Requests: make([]sellerSupportRequest, len(threads))}
		for i, t := range threads {
			out.Requests[i] = sellerSupportRequest{ID: t.ID, Subject: t.Subject, Message: t.Message, Status: t.Status,
				CreatedAt: t.CreatedAt, Replies: make([]sellerSupportReply, len(t.Thread))}
			for j, reply := range t.Thread {
				out.Requests[i].Replies[j] = sellerSupportReply{Message: reply.Message, CreatedAt: reply.CreatedAt}
			}
		}
		encode(w, http.StatusOK, out)
	}
}

// supportReplyMail is the mail of a staff reply to the seller who asked:
// the reply's text, and where the whole thread is (APP_BASE_URL/support);
// the seller's answer by mail goes to the support mailbox.
func supportReplyMail(productName, supportEmail, baseURL string) func(supportrequests.Request, supportrequests.Reply) mail.Message {
	return func(sr supportrequests.Request, reply supportrequests.Reply) mail.Message {
		return mail.Message{
			To: sr.Email, ReplyTo: supportEmail,
			Subject: "Re: " + strings.Join(strings.Fields(sr.Subject), " "),
			Text: fmt.Sprintf("%s\n\n-- \n%s support. Your request and every reply: %s/support\n\n> %s\n",
				reply.Message, productName, strings.TrimSuffix(baseURL, "/"), strings.ReplaceAll(sr.Message, "\n", "\n> ")),
		}
	}
}
