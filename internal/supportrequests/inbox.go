package supportrequests

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/ids"
	"github.com/a2e-automation/app/internal/mail"
	"github.com/a2e-automation/app/internal/staffaudit"
)

// Statuses of a request: open until staff answer it, answered after a
// reply, closed when staff say it is done.
const (
	StatusOpen     = "open"
	StatusAnswered = "answered"
	StatusClosed   = "closed"
)

// ValidStatus reports whether status is one a request can have.
func ValidStatus(status string) bool {
	switch status {
	case StatusOpen, StatusAnswered, StatusClosed:
		return true
	}
	return false
}

// Reply is one staff reply in a request's thread.
type Reply struct {
	ID        string
	RequestID string
	AuthorID  string // the staff member's account
	Author    string // their address, shown to staff only
	Message   string
	CreatedAt time.Time
}

// Thread is a request and its replies, oldest first.
type Thread struct {
	Request
	Thread []Reply
}

// Errors of the inbox.
var (
	ErrNotFound  = domain.Errorf(domain.CodeNotFound, "Support request not found")
	ErrBadCursor = domain.Errorf(domain.CodeInvalid, "Invalid cursor")
)

const requestColumns = `r.id::text, r.account_id::text, r.email, r.subject, r.message, r.status, r.created_at, r.updated_at,
	(SELECT count(*) FROM support_replies p WHERE p.request_id = r.id)`

func scanRequest(row pgx.CollectableRow) (Request, error) {
	var r Request
	err := row.Scan(&r.ID, &r.AccountID, &r.Email, &r.Subject, &r.Message, &r.Status, &r.CreatedAt, &r.UpdatedAt, &r.Replies)
	return r, err
}

// Page is a page of the inbox, newest first; NextCursor is "" on the last.
type Page struct {
	Requests   []Request
	NextCursor string
}

// List returns up to limit requests, newest first, of status (every status
// when ""), after cursor (a Page's NextCursor; "" for the first page).
func (s *Store) List(ctx context.Context, status, cursor string, limit int) (Page, error) {
	after, afterID, err := parseCursor(cursor)
	if err != nil {
		return Page{}, err
	}
	rows, err := s.pool.Query(ctx, `SELECT `+requestColumns+` FROM support_requests r
		WHERE ($1 = '' OR r.status = $1) AND ($2::timestamptz IS NULL OR (r.created_at, r.id) < ($2, $3::uuid))
		ORDER BY r.created_at DESC, r.id DESC LIMIT $4`, status, after, afterID, limit+1)
	if err != nil {
		return Page{}, fmt.Errorf("list support requests: %w", err)
	}
	list, err := pgx.CollectRows(rows, scanRequest)
	if err != nil {
		return Page{}, fmt.Errorf("list support requests: %w", err)
	}
	page := Page{Requests: list}
	if len(list) > limit {
		page.Requests = list[:limit]
		last := page.Requests[limit-1]
		page.NextCursor = base64.RawURLEncoding.EncodeToString(
			[]byte(strconv.FormatInt(last.CreatedAt.UnixMicro(), 10) + "." + last.ID))
	}
	return page, nil
}

// parseCursor reads a cursor: the creation time (microseconds, as
// PostgreSQL keeps it) and id of the last request of the previous page.
// The position is not a secret: a changed cursor only moves the page.
func parseCursor(cursor string) (*time.Time, *string, error) {
	if cursor == "" {
		return nil, nil, nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return nil, nil, ErrBadCursor
	}
	micros, id, ok := strings.Cut(string(raw), ".")
	n, err := strconv.ParseInt(micros, 10, 64)
	if !ok || err != nil || !ids.Valid(id) {
		return nil, nil, ErrBadCursor
	}
	t := time.UnixMicro(n).UTC()
	return &t, &id, nil
}

// Get returns request id with its thread; ErrNotFound when there is none.
func (s *Store) Get(ctx context.Context, id string) (Thread, error) {
	if !ids.Valid(id) {
		return Thread{}, ErrNotFound
	}
	rows, err := s.pool.Query(ctx, `SELECT `+requestColumns+` FROM support_requests r WHERE r.id = $1`, id)
	if err != nil {
		return Thread{}, fmt.Errorf("read support request: %w", err)
	}
	r, err := pgx.CollectExactlyOneRow(rows, scanRequest)
	if errors.Is(err, pgx.ErrNoRows) {
		return Thread{}, ErrNotFound
	}
	if err != nil {
		return Thread{}, fmt.Errorf("read support request: %w", err)
	}
	replies, err := s.replies(ctx, []string{id})
	if err != nil {
		return Thread{}, err
	}
	return Thread{Request: r, Thread: replies[id]}, nil
}

// OfAccount returns accountID's latest 50 requests, newest first, each with
// its thread: what the seller sees on the support page.
func (s *Store) OfAccount(ctx context.Context, accountID string) ([]Thread, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+requestColumns+` FROM support_requests r
		WHERE r.account_id = $1 ORDER BY r.created_at DESC, r.id DESC LIMIT 50`, accountID)
	if err != nil {
		return nil, fmt.Errorf("list support requests of %s: %w", accountID, err)
	}
	list, err := pgx.CollectRows(rows, scanRequest)
	if err != nil {
		return nil, fmt.Errorf("list support requests of %s: %w", accountID, err)
	}
	ids := make([]string, len(list))
	for i, r := range list {
		ids[i] = r.ID
	}
	replies, err := s.replies(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Thread, len(list))
	for i, r := range list {
		out[i] = Thread{Request: r, Thread: replies[r.ID]}
	}
	return out, nil
}

// replies are the replies of requestIDs, per request, oldest first; a
// request without any has an empty (not nil) list.
func (s *Store) replies(ctx context.Context, requestIDs []string) (map[string][]Reply, error) {
	out := make(map[string][]Reply, len(requestIDs))
	for _, id := range requestIDs {
		out[id] = []Reply{}
	}
	rows, err := s.pool.Query(ctx, `SELECT id::text, request_id::text, coalesce(author_id::text, ''), author, message, created_at
		FROM support_replies WHERE request_id::text = ANY($1) ORDER BY created_at, id`, requestIDs)
	if err != nil {
		return nil, fmt.Errorf("read support replies: %w", err)
	}
	list, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Reply, error) {
		var r Reply
		err := row.Scan(&r.ID, &r.RequestID, &r.AuthorID, &r.Author, &r.Message, &r.CreatedAt)
		return r, err
	})
	if err != nil {
		return nil, fmt.Errorf("read support replies: %w", err)
	}
	for _, r := range list {
		out[r.RequestID] = append(out[r.RequestID], r)
	}
	return out, nil
}

// AddReply stores a staff reply to request requestID, marks the request
// answered, queues the mail compose makes of it (to the seller) and
// records the audit line audit makes of it (nil: none), all in one
// transaction: the mail goes out once the reply is kept, and only then; a
// failure to record the line undoes it all.
func (s *Store) AddReply(ctx context.Context, requestID, authorID, author, message string, now time.Time,
	compose func(Request, Reply) mail.Message, audit func(Request, Reply) staffaudit.Entry) (Reply, error) {
	if !ids.Valid(requestID) {
		return Reply{}, ErrNotFound
	}
	reply := Reply{ID: uuid.NewString(), RequestID: requestID, AuthorID: authorID, Author: author, Message: message, CreatedAt: now}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `UPDATE support_requests r SET status = $2, updated_at = $3 WHERE r.id = $1
			RETURNING `+requestColumns, requestID, StatusAnswered, now)
		if err != nil {
			return fmt.Errorf("answer support request: %w", err)
		}
		r, err := pgx.CollectExactlyOneRow(rows, scanRequest)
		if errors.Is(err, pgx.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("answer support request: %w", err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO support_replies (id, request_id, author_id, author, message, created_at)
			VALUES ($1, $2, $3, $4, $5, $6)`, reply.ID, requestID, authorID, author, message, now); err != nil {
			return fmt.Errorf("store support reply: %w", err)
		}
		if err := mail.Enqueue(ctx, tx, mail.KindSupport, compose(r, reply), now); err != nil {
			return err
		}
		if audit != nil {
			return staffaudit.RecordTx(ctx, tx, audit(r, reply))
		}
		return nil
	})
	if err != nil {
		return Reply{}, err
	}
	return reply, nil
}

// SetStatus sets request id's status and records the audit line audit
// makes of it (nil: none) in the same transaction, a failure to record it
// undoing it; ErrNotFound when there is no such request.
func (s *Store) SetStatus(ctx context.Context, id, status string, now time.Time, audit func(Request) staffaudit.Entry) error {
	if !ValidStatus(status) {
		return domain.Errorf(domain.CodeInvalid, "The status must be %q, %q or %q", StatusOpen, StatusAnswered, StatusClosed)
	}
	if !ids.Valid(id) {
		return ErrNotFound
	}
	return pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `UPDATE support_requests r SET status = $2, updated_at = $3 WHERE r.id = $1
			RETURNING `+requestColumns, id, status, now)
		if err != nil {
			return fmt.Errorf("set support request status: %w", err)
		}
		r, err := pgx.CollectExactlyOneRow(rows, scanRequest)
		if errors.Is(err, pgx.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return fmt.Errorf("set support request status: %w", err)
		}
		if audit != nil {
			return staffaudit.RecordTx(ctx, tx, audit(r))
		}
		return nil
	})
}
