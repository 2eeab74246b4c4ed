package main

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/app/query"
	"github.com/a2e-automation/app/internal/auth"
	"github.com/a2e-automation/app/internal/ids"
	"github.com/a2e-automation/app/internal/staffaudit"
)

// staffSession hides a route from everyone but staff: anonymous visitors
// and sellers alike get the same 404 as an unknown route.
func staffSession(d Deps) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			noStore(w)
			sess, err := d.Auth.Session(r.Context(), sessionToken(d, r), time.Now())
			if err != nil && !errors.Is(err, auth.ErrNoSession) {
				writeError(w, r, d.Log, err)
				return
			}
			if err != nil || !sess.IsStaff {
				apiNotFound(d)(w, r)
				return
			}
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), sessionKey, sess)))
		})
	}
}

// requireStaff is staffSession for the console's routes, which also need a
// session that has passed the second factor: 403 staff_mfa_required until
// then, whatever the route (docs/auth.md).
func requireStaff(d Deps) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return staffSession(d)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !currentSession(r.Context()).MFAPassed {
				writeError(w, r, d.Log, errCoded(http.StatusForbidden, CodeStaffMFARequired,
					"The staff console needs your second factor: enter the code of your authenticator app."))
				return
			}
			next.ServeHTTP(w, r)
		}))
	}
}

// audited records, before the route runs, that the staff member called it
// (staffaudit, action) on the route's {id} account, if any, with the query
// as detail; the route does not run when the line cannot be written, so no
// look goes unrecorded. An {id} that is no account id is left to the
// route's own 404.
func audited(d Deps, action string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			account := chi.URLParam(r, "id")
			if account != "" && !ids.Valid(account) {
				next.ServeHTTP(w, r)
				return
			}
			detail := r.URL.Query().Encode()
			if name := chi.URLParam(r, "name"); name != "" {
				detail = name
			}
			err := d.Audit.Record(r.Context(), auditEntry(r, account, action, detail))
			if err != nil {
				writeError(w, r, d.Log, err)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

func staffActor(r *http.Request) string {
	return command.StaffActor(currentSession(r.Context()).AccountID)
}

// accountParam is the {id} of a staff route, a uuid.
func accountParam(r *http.Request) (string, error) {
	id, ok := ids.Canonical(chi.URLParam(r, "id"))
	if !ok {
		return "", errStatus(http.StatusNotFound, "Account not found")
	}
	return id, nil
}

// accountAsOfParams reads a staff route's {id} and its ?asOf= (RFC 3339 or
// a date meaning the end of that day, UTC; nil when absent).
func accountAsOfParams(r *http.Request) (string, *time.Time, error) {
	id, err := accountParam(r)
	if err != nil {
		return "", nil, err
	}
	asOf, err := asOfParam(r)
	return id, asOf, err
}

func asOfParam(r *http.Request) (*time.Time, error) {
	v := strings.TrimSpace(r.URL.Query().Get("asOf"))
	if v == "" {
		return nil, nil
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return &t, nil
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		end := t.Add(24*time.Hour - time.Nanosecond)
		return &end, nil
	}
	return nil, invalid(map[string]string{"asOf": "asOf must be a date (2026-11-22) or a time (2026-11-22T10:00:00Z)"})
}

func handleStaffSearch(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query().Get("q")
		hits, err := d.App.Queries.StaffSearch.Handle(r.Context(), q)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		// Each account shown is recorded against it before it is shown.
		accounts, details := make([]string, len(hits)), make([]string, len(hits))
		for i, h := range hits {
			accounts[i], details[i] = h.ID, "q="+q
		}
		if err := recordShown(r, d, staffaudit.ActionSearchResult, accounts, details); err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, hits)
	}
}

func handleStaffHistory(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, asOf, err := accountAsOfParams(r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		limit := 50
		if v := r.URL.Query().Get("limit"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 500 {
				writeError(w, r, d.Log, invalid(map[string]string{"limit": "limit must be a whole number from 1 to 500"}))
				return
			}
			limit = n
		}
		page, err := d.App.Queries.StaffHistory.Handle(r.Context(), query.StaffHistory{AccountID: id, AsOf: asOf, Cursor: r.URL.Query().Get("cursor"), Limit: limit})
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, page)
	}
}

func handleStaffBalance(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, asOf, err := accountAsOfParams(r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		report, err := d.App.Queries.StaffBalance.Handle(r.Context(), id, asOf)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, report)
	}
}

func handleStaffComparison(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := accountParam(r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		cmp, err := d.App.Queries.StaffComparison.Handle(r.Context(), id)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, cmp)
	}
}

// adjustmentRequest is a staff credit adjustment.
type adjustmentRequest struct {
	Credits int64  `json:"credits"`
	Reason  string `json:"reason"`
}

// Valid implements validator.
func (a *adjustmentRequest) Valid(context.Context) map[string]string {
	p := map[string]string{}
	if a.Credits == 0 {
		p["credits"] = "Credits must be a whole number other than 0"
	} else if a.Credits > 1_000_000 || a.Credits < -1_000_000 {
		p["credits"] = "Credits must be between -1,000,000 and 1,000,000"
	}
	if msg := staffReasonProblem(a.Reason); msg != "" {
		p["reason"] = msg
	}
	return p
}

// handleStaffAdjustment grants or removes credits (command.AdjustCredits)
// under the request's Idempotency-Key, which it requires: the webapp sends
// one per dialog, so a double click or a retry grants once.
func handleStaffAdjustment(d Deps) http.HandlerFunc {
	type response struct {
		Balance  int64 `json:"balance"`
		Position int64 `json:"position"`
	}
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := accountParam(r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		req, idem, err := decodeMetered[adjustmentRequest](r, command.AdjustmentKeyPrefix)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		if idem.key == "" {
			writeError(w, r, d.Log, invalid(map[string]string{"Idempotency-Key": "An Idempotency-Key header is required: one per adjustment, the same on a retry"}))
			return
		}
		s := currentSession(r.Context())
		md := metadata(r, staffActor(r))
		md.IdempotencyKey = idem.sent
		res, err := d.App.Commands.AdjustCredits.Handle(r.Context(), command.AdjustCredits{
			StaffID: s.AccountID, AccountID: id, Credits: req.Credits, Reason: req.Reason,
			IdempotencyKey: idem.key, RequestHash: idem.hash, RequestID: requestID(r.Context()), Metadata: md,
		})
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		if res.Replayed {
			w.Header().Set("Idempotent-Replayed", "true")
		} else {
			d.Log.InfoContext(r.Context(), "staff adjustment", "staff", staffActor(r), "account", id, "credits", req.Credits)
		}
		awaitProjections(d, r, res.Position)
		encode(w, http.StatusCreated, response{Balance: res.Balance, Position: res.Position})
	}
}

// handleStaffAccount answers one account for its page (staff.Console.Account).
func handleStaffAccount(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, err := accountParam(r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		v, err := d.App.Queries.StaffAccount.Handle(r.Context(), id)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, v)
	}
}

// handleStaffAudit lists the audit trail, newest first, by account and by
// staff member (an account id or an email), a page at a time.
func handleStaffAudit(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		f := staffaudit.Filter{AccountID: strings.TrimSpace(q.Get("accountId")), Actor: q.Get("actor"), Cursor: q.Get("cursor"), Limit: 50}
		if v := q.Get("limit"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				writeError(w, r, d.Log, invalid(map[string]string{"limit": staffaudit.ErrBadLimit.Error()}))
				return
			}
			f.Limit = n
		}
		// Reading the trail is itself a line, against the account asked about.
		account, _ := ids.Canonical(f.AccountID)
		if err := d.Audit.Record(r.Context(), auditEntry(r, account, staffaudit.ActionAuditRead, r.URL.Query().Encode())); err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		page, err := d.App.Queries.StaffAudit.Handle(r.Context(), f)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, page)
	}
}

func handleStaffRebuild(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		name := chi.URLParam(r, "name")
		if _, err := d.Projections.Projection(name); err != nil {
			writeError(w, r, d.Log, errStatus(http.StatusNotFound, "Unknown projection %q", name))
			return
		}
		start := time.Now()
		d.Log.InfoContext(r.Context(), "staff projection rebuild", "staff", staffActor(r), "projection", name)
		if err := d.Projections.Rebuild(r.Context(), name, 0); err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, map[string]any{
			"message": "Projection " + name + " rebuilt", "projection": name, "ms": time.Since(start).Milliseconds(),
		})
	}
}

// warnUnprotectedAudit warns at start-up while the API's database role
// could switch the staff audit's append-only trigger off (docs/auth.md,
// "The audit's database role"); the API still starts.
func warnUnprotectedAudit(ctx context.Context, log *slog.Logger, d Deps) {
	why, err := d.Audit.Protection(ctx)
	switch {
	case err != nil:
		log.WarnContext(ctx, "could not check the staff audit's protection", "err", err)
	case why != "":
		log.WarnContext(ctx, "the staff audit trail is not protected from this process: "+why+
			"; give staff_audit to a role the API does not log in as (docs/auth.md, \"The audit's database role\")")
	}
}
