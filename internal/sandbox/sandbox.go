// Package sandbox is test mode's ledger (issue 34, item 2): per account, a
// balance of test credits (1,000 at first and after each reset) that only
// the account's a2e_test_ keys spend, and the listings they make, read back
// only with test keys. It is an operational table, not the account's
// stream: test credits are not money, and nothing here touches the real
// balance, usage statistics or billing.
package sandbox

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
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
)

// StartingCredits is a sandbox's balance at first and after a reset.
const StartingCredits = 1000

// ErrKeyNotWorking refuses a key that is not a working test key of the account.
var ErrKeyNotWorking = domain.ErrAPIKeyNotCurrent

// ErrNoTestCredits is a spend from an empty sandbox.
var ErrNoTestCredits = domain.Errorf(domain.CodeInsufficientCredits, "No test credits left: reset the sandbox on the API Keys page")

// Listing is a listing made in test mode.
type Listing struct {
	ID, ASIN, AmazonURL, KeyID, IdempotencyKey string
	CreatedAt                                  time.Time
	CreditsRemaining                           int64  // after the spend that made it
	requestHash                                string // of the request that made it, with an Idempotency-Key
}

// Store keeps the sandboxes in PostgreSQL.
type Store struct{ pool *pgxpool.Pool }

// New returns a Store on pool.
func New(pool *pgxpool.Pool) *Store { return &Store{pool: pool} }

// Spend takes a test credit for a listing of asin at url, made with the key
// whose hash is keyHash, in one transaction that first checks the key is a
// working test key of accountID. With an idempotency key already used, it
// returns the first listing (replayed) and charges nothing when requestHash
// (the request's, as live mode hashes it) is the first's, and is
// eventstore.ErrIdempotencyKeyReused when it is not.
func (s *Store) Spend(ctx context.Context, accountID, keyHash, idempotencyKey, requestHash, asin, url string) (l Listing, replayed bool, err error) {
	err = pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		keyID, credits, err := lockBalance(ctx, tx, accountID, keyHash)
		if err != nil {
			return err
		}
		if idempotencyKey != "" {
			first, err := scanListing(tx.QueryRow(ctx, listingColumns+` WHERE account_id = $1 AND idempotency_key = $2`, accountID, idempotencyKey))
			if err == nil && first.requestHash != requestHash {
				return eventstore.ErrIdempotencyKeyReused // as live mode: another request under a used key
			}
			if err == nil {
				l, replayed = first, true
				return nil
			}
			if !errors.Is(err, pgx.ErrNoRows) {
				return err
			}
		}
		if credits <= 0 {
			return ErrNoTestCredits
		}
		l = Listing{ID: uuid.NewString(), ASIN: asin, AmazonURL: url, KeyID: keyID, IdempotencyKey: idempotencyKey,
			CreditsRemaining: credits - 1, requestHash: requestHash}
		if _, err := tx.Exec(ctx, `UPDATE sandbox_balances SET credits = credits - 1 WHERE account_id = $1`, accountID); err != nil {
			return err
		}
		var idem *string
		if idempotencyKey != "" {
			idem = &idempotencyKey
		}
		return tx.QueryRow(ctx, `INSERT INTO sandbox_listings (id, account_id, key_id, asin, amazon_url, idempotency_key, credits_after, request_hash)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING created_at`, l.ID, accountID, keyID, asin, url, idem, l.CreditsRemaining, requestHash).Scan(&l.CreatedAt)
	})
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "23505" && idempotencyKey != "" {
		// Not expected (the balance row's lock orders one account's spends),
		// but should two first uses of one Idempotency-Key meet, the second
		// reads the first back.
		var first Listing
		first, err = scanListing(s.pool.QueryRow(ctx, listingColumns+` WHERE account_id = $1 AND idempotency_key = $2`, accountID, idempotencyKey))
		if err == nil && first.requestHash != requestHash {
			return Listing{}, false, eventstore.ErrIdempotencyKeyReused
		}
		if err == nil {
			return first, true, nil
		}
	}
	if err != nil && domain.ErrorCode(err) == "" {
		err = fmt.Errorf("sandbox spend: %w", err)
	}
	return l, replayed, err
}

// lockBalance checks that keyHash is a working test key of accountID and
// locks the account's sandbox balance row (made at StartingCredits on first
// use), so two spends of one account wait for each other. It returns the
// key's id and the test credits.
func lockBalance(ctx context.Context, tx pgx.Tx, accountID, keyHash string) (keyID string, credits int64, err error) {
	err = tx.QueryRow(ctx, `SELECT key_id FROM api_keys WHERE key_hash = $1 AND account_id = $2 AND mode = 'test'
		AND (expires_at IS NULL OR expires_at > now()) AND (retires_at IS NULL OR retires_at > now())`, keyHash, accountID).Scan(&keyID)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", 0, ErrKeyNotWorking
	}
	if err != nil {
		return "", 0, err
	}
	if _, err := tx.Exec(ctx, `INSERT INTO sandbox_balances (account_id, credits) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
		accountID, StartingCredits); err != nil {
		return "", 0, err
	}
	err = tx.QueryRow(ctx, `SELECT credits FROM sandbox_balances WHERE account_id = $1 FOR UPDATE`, accountID).Scan(&credits)
	return keyID, credits, err
}

const listingColumns = `SELECT id::text, asin, amazon_url, key_id, coalesce(idempotency_key, ''), created_at, credits_after, request_hash FROM sandbox_listings`

func scanListing(row pgx.Row) (Listing, error) {
	var l Listing
	err := row.Scan(&l.ID, &l.ASIN, &l.AmazonURL, &l.KeyID, &l.IdempotencyKey, &l.CreatedAt, &l.CreditsRemaining, &l.requestHash)
	return l, err
}

// Credits is accountID's test credits (StartingCredits before first use).
func (s *Store) Credits(ctx context.Context, accountID string) (int64, error) {
	var credits int64
	err := s.pool.QueryRow(ctx, `SELECT coalesce((SELECT credits FROM sandbox_balances WHERE account_id = $1), $2)`,
		accountID, StartingCredits).Scan(&credits)
	if err != nil {
		return 0, fmt.Errorf("sandbox credits: %w", err)
	}
	return credits, nil
}

// Reset sets accountID's test credits back to StartingCredits.
func (s *Store) Reset(ctx context.Context, accountID string) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO sandbox_balances (account_id, credits) VALUES ($1, $2)
		ON CONFLICT (account_id) DO UPDATE SET credits = excluded.credits, reset_at = now()`, accountID, StartingCredits)
	if err != nil {
		return fmt.Errorf("sandbox reset: %w", err)
	}
	return nil
}

// ErrListingNotFound is a test listing the account does not have.
var ErrListingNotFound = domain.Errorf(domain.CodeNotFound, "Listing not found")

// Listing returns accountID's test listing id.
func (s *Store) Listing(ctx context.Context, accountID, id string) (Listing, error) {
	if _, err := uuid.Parse(id); err != nil {
		return Listing{}, ErrListingNotFound
	}
	l, err := scanListing(s.pool.QueryRow(ctx, listingColumns+` WHERE account_id = $1 AND id = $2`, accountID, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return Listing{}, ErrListingNotFound
	}
	return l, err
}

// ErrBadCursor is a cursor that no test-mode page handed out.
var ErrBadCursor = domain.Errorf(domain.CodeInvalid, "cursor is not a nextCursor this API returned in test mode")

const cursorPrefix = "sandbox:"

// A cursor is the last listing of a page: its created_at (microseconds)
// and id, the order of the read-back, so the next page starts after it.
func encodeCursor(l Listing) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorPrefix + strconv.FormatInt(l.CreatedAt.UnixMicro(), 10) + ":" + l.ID))
}

func decodeCursor(c string) (time.Time, string, error) {
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return time.Time{}, "", ErrBadCursor
	}
	rest, ok := strings.CutPrefix(string(raw), cursorPrefix)
	micros, id, ok2 := strings.Cut(rest, ":")
	n, err := strconv.ParseInt(micros, 10, 64)
	if !ok || !ok2 || err != nil || n <= 0 || uuid.Validate(id) != nil {
		return time.Time{}, "", ErrBadCursor
	}
	return time.UnixMicro(n), id, nil
}

// CheckCursor is ErrBadCursor for a cursor no test-mode page handed out.
func CheckCursor(c string) error {
	_, _, err := decodeCursor(c)
	return err
}

// Listings returns a page of accountID's test listings, newest first: up to
// limit, older than cursor (a nextCursor, or "" for the first page), and
// the cursor of the next page ("" on the last). With idempotencyKey set it
// returns the one listing that key made.
func (s *Store) Listings(ctx context.Context, accountID string, limit int, cursor, idempotencyKey string) ([]Listing, string, error) {
	q, args := listingColumns+` WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`, []any{accountID, limit + 1}
	switch {
	case idempotencyKey != "":
		q, args = listingColumns+` WHERE account_id = $1 AND idempotency_key = $2`, []any{accountID, idempotencyKey}
	case cursor != "":
		at, id, err := decodeCursor(cursor)
		if err != nil {
			return nil, "", err
		}
		q = listingColumns + ` WHERE account_id = $1 AND (created_at, id) < ($3, $4) ORDER BY created_at DESC, id DESC LIMIT $2`
		args = append(args, at, id)
	}
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, "", fmt.Errorf("sandbox listings: %w", err)
	}
	found, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Listing, error) { return scanListing(r) })
	if err != nil {
		return nil, "", fmt.Errorf("sandbox listings: %w", err)
	}
	next := ""
	if idempotencyKey == "" && len(found) > limit {
		found = found[:limit]
		next = encodeCursor(found[limit-1])
	}
	return found, next, nil
}
