package main

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/app/query"
	"github.com/a2e-automation/app/internal/staffaudit"
	"github.com/a2e-automation/app/internal/supportrequests"
)

// maxReply bounds a staff reply, as a seller's message is bounded.
const maxReply = maxMessage

func handleStaffSupportInbox(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		status := strings.TrimSpace(q.Get("status"))
		if status != "" && !supportrequests.ValidStatus(status) {
			writeError(w, r, d.Log, invalid(map[string]string{"status": statusProblem}))
			return
		}
		limit := 25
		if v := q.Get("limit"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 100 {
				writeError(w, r, d.Log, invalid(map[string]string{"limit": "limit must be a whole number from 1 to 100"}))
				return
			}
			limit = n
		}
		page, err := d.App.Queries.SupportInbox.Handle(r.Context(), query.SupportInbox{Status: status, Cursor: q.Get("cursor"), Limit: limit})
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		// Each seller shown is recorded against their account before the page is shown.
		accounts, details := make([]string, len(page.Requests)), make([]string, len(page.Requests))
		for i, req := range page.Requests {
			accounts[i], details[i] = req.AccountID, "request "+req.ID
		}
		if err := recordShown(r, d, staffaudit.ActionInboxListed, accounts, details); err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, page)
	}
}

func handleStaffSupportRequest(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		thread, err := d.App.Queries.SupportThread.Handle(r.Context(), chi.URLParam(r, "id"))
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		// Recorded before it is shown: an unrecorded look shows nothing.
		if err := d.Audit.Record(r.Context(), auditEntry(r, thread.AccountID, staffaudit.ActionSupportRequest, "request "+thread.ID)); err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, thread)
	}
}

type supportReplyRequest struct {
	Message string `json:"message"`
}

// Valid implements validator.
func (q supportReplyRequest) Valid(context.Context) map[string]string {
	switch n := utf8.RuneCountInString(strings.TrimSpace(q.Message)); {
	case n == 0:
		return map[string]string{"message": "A reply message is required"}
	case n > maxReply:
		return map[string]string{"message": fmt.Sprintf("The reply must be at most %d characters", maxReply)}
	}
	return nil
}

func handleStaffSupportReply(d Deps) http.HandlerFunc {
	type response struct {
		ID        string    `json:"id"`
		Message   string    `json:"message"`
		CreatedAt time.Time `json:"createdAt"`
	}
	return func(w http.ResponseWriter, r *http.Request) {
		req, err := decode[supportReplyRequest](r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		s := currentSession(r.Context())
		reply, err := d.App.Commands.ReplySupportRequest.Handle(r.Context(), command.ReplySupportRequest{
			RequestID: chi.URLParam(r, "id"), StaffID: s.AccountID, StaffEmail: s.Email, Message: strings.TrimSpace(req.Message),
			HTTPRequestID: requestID(r.Context())})
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusCreated, response{ID: reply.ID, Message: reply.Message, CreatedAt: reply.CreatedAt})
	}
}

// statusProblem names the statuses a support request can have.
var statusProblem = fmt.Sprintf("The status must be %q, %q or %q",
	supportrequests.StatusOpen, supportrequests.StatusAnswered, supportrequests.StatusClosed)

type supportStatusRequest struct {
	Status string `json:"status"`
}

// Valid implements validator.
func (q supportStatusRequest) Valid(context.Context) map[string]string {
	if !supportrequests.ValidStatus(q.Status) {
		return map[string]string{"status": statusProblem}
	}
	return nil
}

func handleStaffSupportStatus(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, err := decode[supportStatusRequest](r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		if err := d.App.Commands.SetSupportRequestStatus.Handle(r.Context(), command.SetSupportRequestStatus{
			RequestID: chi.URLParam(r, "id"), StaffID: currentSession(r.Context()).AccountID, Status: req.Status,
			HTTPRequestID: requestID(r.Context())}); err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, map[string]string{"status": req.Status, "message": "Status changed to " + req.Status})
	}
}
