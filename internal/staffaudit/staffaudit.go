// Package staffaudit is the staff audit trail: every staff read of an
// account and every staff action, with actor, time, account and what, in
// the append-only table staff_audit (migration 00016: a trigger refuses
// UPDATE, DELETE and TRUNCATE). It is the table's one owner.
package staffaudit

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/ids"
)

// What staff did: the Action of an Entry. Reads, then actions.
const (
	ActionSearch         = "search"                      // the search; Detail is the query
	ActionView           = "account.view"                // an account opened
	ActionHistory        = "account.history"             // its timeline
	ActionBalance        = "account.balance"             // its balance as of a moment
	ActionComparison     = "account.comparison"          // read tables against the events
	ActionSupportInbox   = "support.inbox"               // the support inbox listed; Detail is the query
	ActionSupportRequest = "support.request"             // a support request and its thread read; the seller's account
	ActionAdjustment     = "account.adjustment"          // credits granted or removed
	ActionRefund         = "account.refund"              // a refund the provider took
	ActionCancellation   = "account.subscription_cancel" // a cancellation the provider took
	ActionSupportReply   = "support.reply"               // a reply to a support request, mailed to the seller
	ActionSupportStatus  = "support.status"              // a support request's status set
	ActionRebuild        = "projection.rebuild"          // a read table rebuilt
	// Issue 31, item 11.
	ActionAuditRead    = "audit.read"            // the trail itself listed; Detail is the query
	ActionSearchResult = "account.search_result" // an account shown in search results; Detail is the query
	ActionInboxListed  = "support.inbox_listed"  // an account's request shown in the inbox; Detail is the request
)

// Outcomes of an Entry: done (the default), or refused (the API answered
// an error and did nothing; Detail says why).
const (
	OutcomeDone    = "done"
	OutcomeRefused = "refused"
)

// Entry is one line of the trail.
type Entry struct {
	Actor     string // the staff member's account id ("staff:<id>", an event actor, is read as <id>)
	AccountID string // the account looked at or acted on; empty for none (a search, a rebuild)
	Action    string // one of the Action constants
	Detail    string // what exactly: the query, the moment, the credits and reason…
	RequestID string // the HTTP request's id (the server's), to find its log lines
	// ClientRequestID is an X-Request-ID the client sent, kept apart: the
	// client chooses it, so it never stands for the request.
	ClientRequestID string
	Outcome         string // OutcomeDone ("" too) or OutcomeRefused
}

// Execer runs a statement: the pool or a command's transaction.
type Execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// Log writes and lists the trail.
type Log struct {
	pool *pgxpool.Pool
}

// New returns the trail on pool.
func New(pool *pgxpool.Pool) *Log { return &Log{pool: pool} }

// Record appends e at once, in its own statement. Use RecordTx to write it
// with the action it records.
func (l *Log) Record(ctx context.Context, e Entry) error { return RecordTx(ctx, l.pool, e) }

// RecordTx appends e through q, a command's transaction, so the action and
// its audit line commit together or not at all.
func RecordTx(ctx context.Context, q Execer, e Entry) error {
	return recordAll(ctx, q, []Entry{e})
}

// RecordAll appends entries at once, in one statement (the accounts a
// search or the inbox showed).
func (l *Log) RecordAll(ctx context.Context, entries []Entry) error {
	return recordAll(ctx, l.pool, entries)
}

func recordAll(ctx context.Context, q Execer, entries []Entry) error {
	if len(entries) == 0 {
		return nil
	}
	cols := make([][]*string, 7)
	for _, e := range entries {
		actor := strings.TrimPrefix(e.Actor, "staff:")
		if !ids.Valid(actor) {
			return fmt.Errorf("staff audit: actor %q is not a staff account id", e.Actor)
		}
		if e.Action == "" {
			return errors.New("staff audit: no action")
		}
		if e.Outcome == "" {
			e.Outcome = OutcomeDone
		}
		for i, v := range []string{actor, e.AccountID, e.Action, e.Detail, e.RequestID, e.ClientRequestID, e.Outcome} {
			if i == 1 && v == "" {
				cols[i] = append(cols[i], nil)
				continue
			}
			cols[i] = append(cols[i], &v)
		}
	}
	if _, err := q.Exec(ctx, `INSERT INTO staff_audit (actor_id, account_id, action, detail, request_id, client_request_id, outcome)
		SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])`,
		cols[0], cols[1], cols[2], cols[3], cols[4], cols[5], cols[6]); err != nil {
		return fmt.Errorf("staff audit %s: %w", entries[0].Action, err)
	}
	return nil
}

// Row is a recorded entry as the console lists it.
type Row struct {
	At           time.Time `json:"at"`
	ActorID      string    `json:"actorId"`
	ActorEmail   string    `json:"actorEmail"`
	AccountID    *string   `json:"accountId"`
	AccountEmail *string   `json:"accountEmail"`
	Action       string    `json:"action"`
	Detail       string    `json:"detail"`
	RequestID    string    `json:"requestId"`
	// ClientRequestID: the X-Request-ID the client sent, if any (not the
	// request's id, which is RequestID).
	ClientRequestID string `json:"clientRequestId,omitempty"`
	Outcome         string `json:"outcome"` // done or refused
}

// Page is a page of the trail, newest first; NextCursor is empty on the
// last page.
type Page struct {
	Entries    []Row  `json:"entries"`
	NextCursor string `json:"nextCursor"`
}

// Filter selects the entries to list.
type Filter struct {
	AccountID string // an account id; empty: every account
	Actor     string // a staff member's account id or email; empty: everyone
	Cursor    string // from the previous page; empty: the newest
	Limit     int    // 1 to 200
}

// Why a listing was refused: the domain's CodeInvalid, field by field.
var (
	ErrBadAccount = domain.Errorf(domain.CodeInvalid, "accountId must be an account id (a UUID)")
	ErrBadCursor  = domain.Errorf(domain.CodeInvalid, "cursor is not one this list gave out")
	ErrBadLimit   = domain.Errorf(domain.CodeInvalid, "limit must be a whole number from 1 to 200")
)

const cursorPrefix = "audit:"

// List returns the entries f selects, newest first.
func (l *Log) List(ctx context.Context, f Filter) (Page, error) {
	if f.Limit < 1 || f.Limit > 200 {
		return Page{}, ErrBadLimit
	}
	if f.AccountID != "" {
		if !ids.Valid(f.AccountID) {
			return Page{}, ErrBadAccount
		}
	}
	before := int64(0) // 0: from the newest
	if f.Cursor != "" {
		b, err := base64.RawURLEncoding.DecodeString(f.Cursor)
		id, ok := strings.CutPrefix(string(b), cursorPrefix)
		n, perr := strconv.ParseInt(id, 10, 64)
		if err != nil || !ok || perr != nil || n <= 0 {
			return Page{}, ErrBadCursor
		}
		before = n
	}
	actorID, actorEmail := "", ""
	if a := strings.TrimSpace(f.Actor); a != "" {
		if ids.Valid(a) {
			actorID = a
		} else {
			actorEmail = domain.NormalizeEmail(a)
		}
	}
	rows, err := l.pool.Query(ctx, `SELECT a.id, a.at, a.actor_id::text, coalesce(su.email, ''), a.account_id::text, au.email,
			a.action, a.detail, a.request_id, a.client_request_id, a.outcome
		FROM staff_audit a
		LEFT JOIN users su ON su.account_id = a.actor_id
		LEFT JOIN users au ON au.account_id = a.account_id
		WHERE ($1 = 0 OR a.id < $1)
			AND ($2::uuid IS NULL OR a.account_id = $2::uuid)
			AND ($3::uuid IS NULL OR a.actor_id = $3::uuid)
			AND ($4::text IS NULL OR lower(su.email) = $4::text)
		ORDER BY a.id DESC LIMIT $5`, before, nullable(f.AccountID), nullable(actorID), nullable(actorEmail), f.Limit+1)
	if err != nil {
		return Page{}, fmt.Errorf("list staff audit: %w", err)
	}
	var ids []int64
	entries, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Row, error) {
		var e Row
		var id int64
		err := r.Scan(&id, &e.At, &e.ActorID, &e.ActorEmail, &e.AccountID, &e.AccountEmail, &e.Action, &e.Detail, &e.RequestID,
			&e.ClientRequestID, &e.Outcome)
		ids = append(ids, id)
		return e, err
	})
	if err != nil {
		return Page{}, fmt.Errorf("list staff audit: %w", err)
	}
	page := Page{Entries: entries}
	if len(entries) > f.Limit {
		page.Entries = entries[:f.Limit]
		page.NextCursor = base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + strconv.FormatInt(ids[f.Limit-1], 10)))
	}
	if len(page.Entries) == 0 {
		page.Entries = []Row{}
	}
	return page, nil
}

// nullable is s, or SQL NULL when empty.
func nullable(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
