package projections

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// Profile's fields are the profiles table's columns: each column the
// migrations make has a field (so the upsert writes it), each field with a
// column names one that exists, and the SQL derived from them reads so.
func TestProfileColumnsAreTheTable(t *testing.T) {
	pool := testdb.New(t)
	rows, err := pool.Query(context.Background(), `SELECT column_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name = 'profiles' ORDER BY column_name`)
	if err != nil {
		t.Fatal(err)
	}
	table, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	var fields []string
	for _, c := range profileColumns.columns {
		fields = append(fields, c.name)
	}
	if slices.Sort(fields); !slices.Equal(fields, table) {
		t.Fatalf("Profile's columns %v\nprofiles' columns  %v", fields, table)
	}
	if profileColumns.columns[0].name != "account_id" || profileColumns.columns[0].sql != "uuid" {
		t.Fatalf("first column %+v, want the key account_id as uuid", profileColumns.columns[0])
	}
}

// lastSpendAt (issue 37's example of a field added in three places): a
// spend moves it to the spend's time, other events leave it, the upsert
// writes it, Reader.Profile reads it and the answer names it.
func TestProfileLastSpendAt(t *testing.T) {
	pool := testdb.New(t)
	ctx := context.Background()
	r := NewReader(pool)
	id := uuid.NewString()
	at := func(min int) time.Time { return time.Date(2026, 3, 1, 12, min, 0, 0, time.UTC) }
	apply := func(min int, evs ...domain.Event) {
		t.Helper()
		recs := make([]eventstore.Record, len(evs))
		for i, ev := range evs {
			recs[i] = eventstore.Record{StreamID: domain.StreamID(id), Type: ev.EventType(), RecordedAt: at(min + i)}
		}
		tx, err := pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = tx.Rollback(ctx) }()
		if err := (Profiles{}).Apply(ctx, tx, Tables{}, recs, evs); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(ctx); err != nil {
			t.Fatal(err)
		}
	}
	read := func() (Profile, map[string]any) {
		t.Helper()
		p, err := r.Profile(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return p, m
	}

	apply(0, domain.AccountRegistered{AccountID: id, Email: "spender@example.com"}, domain.CreditsGranted{Amount: 10})
	if p, m := read(); p.LastSpendAt != nil || m["lastSpendAt"] != nil {
		t.Fatalf("before any spend: %v, answered %v", p.LastSpendAt, m["lastSpendAt"])
	}
	// Two spends in one batch, then a grant, a listing and a dispute: the
	// last spend's time stands.
	apply(10, domain.CreditsSpent{Amount: 1}, domain.CreditsSpent{Amount: 2})
	apply(20, domain.CreditsGranted{Amount: 5}, domain.ListingRequested{}, domain.DisputeOpened{})
	p, m := read()
	if p.LastSpendAt == nil || !p.LastSpendAt.Equal(at(11)) || p.CreditsUsed != 3 || !p.SpendingFrozen {
		t.Fatalf("after spends: last spend %v, used %d, frozen %v", p.LastSpendAt, p.CreditsUsed, p.SpendingFrozen)
	}
	if got, err := time.Parse(time.RFC3339, m["lastSpendAt"].(string)); err != nil || !got.Equal(at(11)) {
		t.Fatalf("answered lastSpendAt %v (%v)", m["lastSpendAt"], err)
	}
}

// BenchmarkProfileArrays is the upsert's per-row work in Go: unnest's typed
// arrays gathered from rows through the cached field indexes (columns.go).
// It reports ns per row.
func BenchmarkProfileArrays(b *testing.B) {
	at := time.Now()
	rows := make([]reflect.Value, 200)
	for i := range rows {
		p := &Profile{AccountID: uuid.NewString(), Email: "a@b.c", CreditsAvailable: int64(i), RegisteredAt: at, UpdatedAt: at, LastSpendAt: &at}
		rows[i] = reflect.ValueOf(p).Elem()
	}
	b.Run("derived", func(b *testing.B) {
		for b.Loop() {
			_ = profileColumns.arrays(rows)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(rows)), "ns/row")
	})
	// By hand, as writeProfiles was before issue 37: one typed append per
	// column, for comparison under the same load.
	b.Run("by-hand", func(b *testing.B) {
		for b.Loop() {
			n := len(rows)
			s, t, i64, i32, ts, pts, pi64, pi32 := make([][]string, 5), make([][]bool, 3), make([][]int64, 6), make([]int32, 0, n),
				make([][]time.Time, 2), make([][]*time.Time, 3), make([]*int64, 0, n), make([]*int32, 0, n)
			for _, v := range rows {
				r := v.Addr().Interface().(*Profile)
				s[0], s[1], s[2], s[3], s[4] = append(s[0], r.AccountID), append(s[1], r.Email), append(s[2], r.SubscriptionStatus), append(s[3], r.APIKeyPrefix), append(s[4], r.APIKeyEncrypted)
				t[0], t[1] = append(t[0], r.IsVerified), append(t[1], r.LowBalance)
				i64[0], i64[1], i64[2], i64[3], i64[4], i64[5] = append(i64[0], r.CreditDebt), append(i64[1], r.CreditsAvailable), append(i64[2], r.CreditsUsed), append(i64[3], r.ListingsCreated), append(i64[4], r.VeroChecks), append(i64[5], r.Downloads)
				i32, pi64, pi32 = append(i32, r.OpenDisputes), append(pi64, r.LowBalanceCredits), append(pi32, r.ExpiringReminderDays)
				ts[0], ts[1] = append(ts[0], r.RegisteredAt), append(ts[1], r.UpdatedAt)
				pts[0], pts[1], pts[2] = append(pts[0], r.SubscriptionRenewalDate), append(pts[1], r.SubscriptionEndsAt), append(pts[2], r.LastSpendAt)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(rows)), "ns/row")
	})
}
