package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"

	"github.com/a2e-automation/app/internal/ids"
	"github.com/a2e-automation/app/internal/staffaudit"
)

// The audit lines the routes themselves do not write (issue 31, item 11):
// refused actions, reads of the trail, and each account a list showed.

// maxAuditDetail bounds a line's detail, cut at a letter's edge.
const maxAuditDetail = 500

func auditDetail(s string) string {
	if len(s) > maxAuditDetail {
		s = strings.ToValidUTF8(s[:maxAuditDetail], "")
	}
	return s
}

// auditEntry is a line of the signed-in staff member for this request.
func auditEntry(r *http.Request, accountID, action, detail string) staffaudit.Entry {
	return staffaudit.Entry{Actor: currentSession(r.Context()).AccountID, AccountID: accountID, Action: action,
		Detail: auditDetail(detail), RequestID: requestID(r.Context()), ClientRequestID: clientRequestID(r.Context())}
}

// auditRefusals records a line (staffaudit.OutcomeRefused) of action when
// the route answers an error: 403 (one's own account), 402 (not enough
// credits), 404, 409, 400 and the rest alike, with the status, code and
// message as detail, against the route's {id} account when it names one
// (accountRoute). A route that did what it was asked writes its own line
// in its transaction; an error means it did nothing, so no line of it
// exists to contradict this one. The answer has gone out by then: a line
// that cannot be written is logged.
func auditRefusals(d Deps, action string, accountRoute bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
			var body bytes.Buffer
			ww.Tee(&body)
			next.ServeHTTP(ww, r)
			if ww.Status() < 400 {
				return
			}
			var e errorBody
			_ = json.Unmarshal(body.Bytes(), &e)
			id := chi.URLParam(r, "id")
			account, ok := ids.Canonical(id)
			detail := fmt.Sprintf("%d %s: %s", ww.Status(), e.Code, e.Message)
			if !accountRoute || !ok {
				account, detail = "", fmt.Sprintf("%s %s: %s", r.Method, r.URL.Path, detail)
			}
			line := auditEntry(r, account, action, detail)
			line.Outcome = staffaudit.OutcomeRefused
			ctx := context.WithoutCancel(r.Context())
			if err := d.Audit.Record(ctx, line); err != nil {
				d.Log.ErrorContext(ctx, "staff audit of a refused action not written", "action", action, "requestId", requestID(ctx), "err", err)
			}
		})
	}
}

// recordShown records one line of action for each account a list showed
// (accounts, in order, repeats allowed), with the details of its items
// joined; an error keeps the list from being shown.
func recordShown(r *http.Request, d Deps, action string, accounts, details []string) error {
	var lines []staffaudit.Entry
	at := map[string]int{}
	for i, a := range accounts {
		if a == "" {
			continue
		}
		if j, ok := at[a]; ok {
			lines[j].Detail = auditDetail(lines[j].Detail + "; " + details[i])
			continue
		}
		at[a] = len(lines)
		lines = append(lines, auditEntry(r, a, action, details[i]))
	}
	return d.Audit.RecordAll(r.Context(), lines)
}
