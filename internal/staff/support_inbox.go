package staff

import (
	"context"
	"time"

	"github.com/a2e-automation/app/internal/supportrequests"
)

// SupportRequest is a request in the console's inbox, with the seller's
// account beside it (nil when the account is gone).
type SupportRequest struct {
	ID        string          `json:"id"`
	AccountID string          `json:"accountId"`
	Email     string          `json:"email"`
	Subject   string          `json:"subject"`
	Message   string          `json:"message"`
	Status    string          `json:"status"`
	CreatedAt time.Time       `json:"createdAt"`
	UpdatedAt time.Time       `json:"updatedAt"`
	Replies   int             `json:"replyCount"`
	Account   *AccountSummary `json:"account"`
}

// SupportReply is a reply in a request's thread, as staff see it.
type SupportReply struct {
	ID        string    `json:"id"`
	Author    string    `json:"author"` // the staff member's address
	Message   string    `json:"message"`
	CreatedAt time.Time `json:"createdAt"`
}

// SupportThread is one request with its thread, oldest reply first.
type SupportThread struct {
	SupportRequest
	Thread []SupportReply `json:"replies"`
}

// SupportInboxPage is a page of the inbox, newest first.
type SupportInboxPage struct {
	Requests   []SupportRequest `json:"requests"`
	NextCursor string           `json:"nextCursor,omitempty"`
}

// SupportInbox lists up to limit support requests of status (any when
// ""), newest first, after cursor, each with its seller's account summary.
func (c *Console) SupportInbox(ctx context.Context, status, cursor string, limit int) (SupportInboxPage, error) {
	page, err := c.support.List(ctx, status, cursor, limit)
	if err != nil {
		return SupportInboxPage{}, err
	}
	ids := make([]string, len(page.Requests))
	for i, r := range page.Requests {
		ids[i] = r.AccountID
	}
	summaries, err := c.Summaries(ctx, ids)
	if err != nil {
		return SupportInboxPage{}, err
	}
	out := SupportInboxPage{Requests: make([]SupportRequest, len(page.Requests)), NextCursor: page.NextCursor}
	for i, r := range page.Requests {
		out.Requests[i] = supportRequest(r, summaries)
	}
	return out, nil
}

// SupportRequest returns request id with its thread and its seller's
// account summary.
func (c *Console) SupportRequest(ctx context.Context, id string) (SupportThread, error) {
	t, err := c.support.Get(ctx, id)
	if err != nil {
		return SupportThread{}, err
	}
	summaries, err := c.Summaries(ctx, []string{t.AccountID})
	if err != nil {
		return SupportThread{}, err
	}
	out := SupportThread{SupportRequest: supportRequest(t.Request, summaries), Thread: make([]SupportReply, len(t.Thread))}
	for i, r := range t.Thread {
		out.Thread[i] = SupportReply{ID: r.ID, Author: r.Author, Message: r.Message, CreatedAt: r.CreatedAt}
	}
	return out, nil
}

func supportRequest(r supportrequests.Request, summaries map[string]AccountSummary) SupportRequest {
	out := SupportRequest{ID: r.ID, AccountID: r.AccountID, Email: r.Email, Subject: r.Subject, Message: r.Message,
		Status: r.Status, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, Replies: r.Replies}
	if s, ok := summaries[r.AccountID]; ok {
		out.Account = &s
	}
	return out
}
