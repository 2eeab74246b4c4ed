// Package vero keeps the list of brands protected by eBay's VeRO programme
// (Verified Rights Owner) in the vero_brands table and answers whether a
// brand is on it. The list is seeded from brands.txt at start-up.
package vero

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Querier runs statements: a pool or a transaction.
type Querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Clean is brand as shown back: trimmed, with each run of whitespace made
// one space.
func Clean(brand string) string { return strings.Join(strings.Fields(brand), " ") }

// Key is what brands are matched by: Clean and lowercased, so "  NIKE " and
// "nike" are one brand.
func Key(brand string) string { return strings.ToLower(Clean(brand)) }

// ParseList reads a brand list: one brand per line; blank lines and lines
// starting with # are skipped. A brand whose Key repeats an earlier one is
// an error, so the file stays tidy.
func ParseList(text string) ([]string, error) {
	var brands []string
	seen := map[string]int{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := Clean(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if first, dup := seen[Key(line)]; dup {
			return nil, fmt.Errorf("vero list line %d: %q repeats line %d", n, line, first)
		}
		seen[Key(line)] = n
		brands = append(brands, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("vero list: %w", err)
	}
	return brands, nil
}

// Seed inserts the brands of brands.txt that the table lacks and
// returns how many it inserted. It never updates or deletes a row, so it is
// safe to run at every start-up, from several processes at once.
func Seed(ctx context.Context, db Querier) (int64, error) {
	brands, err := ParseList(brandList)
	if err != nil {
		return 0, err
	}
	if len(brands) == 0 {
		return 0, errors.New("vero: the seed list is empty")
	}
	keys := make([]string, len(brands))
	for i, b := range brands {
		keys[i] = Key(b)
	}
	tag, err := db.Exec(ctx, `INSERT INTO vero_brands (brand_key, brand)
		SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (brand_key) DO NOTHING`, keys, brands)
	if err != nil {
		return 0, fmt.Errorf("seed vero brands: %w", err)
	}
	return tag.RowsAffected(), nil
}

// RowQuerier reads one row: a pool, a transaction, or the read-only view
// of one that a spend command gets.
type RowQuerier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// IsProtected reports whether brand is on the list, matched by Key.
func IsProtected(ctx context.Context, db RowQuerier, brand string) (bool, error) {
	var ok bool
	if err := db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM vero_brands WHERE brand_key = $1)`, Key(brand)).Scan(&ok); err != nil {
		return false, fmt.Errorf("look up vero brand: %w", err)
	}
	return ok, nil
}
