package eventstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// BenchmarkAppendSpends appends spends as the group commit writes them (one
// transaction over streams accounts, eventsPerAppend ListingRequested events
// on each, every one with a listing id in its data and an Idempotency-Key in
// its metadata; several per append so that the rows' writes, not the round
// trips, are what is measured) under the listing read-back's indexes of
// migration 00013 and under the alternatives issue 36 weighed
// (docs/benchmarks.md, "Issue 36"):
//
//	go test ./eventstore/ -run '^$' -bench BenchmarkAppendSpends -benchtime 100x
func BenchmarkAppendSpends(b *testing.B) {
	const streams, eventsPerAppend = 32, 8
	all3 := []string{"events_listings", "events_listing_ids", "events_listing_keys"}
	variants := []struct {
		name  string
		drop  []string
		table bool // a narrow listing_index table written in the spends' transaction, one statement
	}{
		{"indexes=00013", nil, false},
		{"indexes=id+key", all3[:1], false},
		{"indexes=none", all3, false},
		{"table=listing_index", all3, true},
	}
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			pool := testdb.New(b)
			ctx := context.Background()
			for _, ix := range v.drop {
				if _, err := pool.Exec(ctx, "DROP INDEX "+ix); err != nil {
					b.Fatal(err)
				}
			}
			if v.table {
				if _, err := pool.Exec(ctx, `CREATE TABLE listing_index (
					listing_id text PRIMARY KEY, stream_id text NOT NULL, stream_version bigint NOT NULL, idempotency_key text);
					CREATE INDEX listing_index_keys ON listing_index (stream_id, idempotency_key) WHERE idempotency_key IS NOT NULL`); err != nil {
					b.Fatal(err)
				}
			}
			s := eventstore.New(pool)
			versions := make([]int64, streams)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				tx, err := pool.Begin(ctx)
				if err != nil {
					b.Fatal(err)
				}
				var ids, streamIDs, keys []string
				var vers []int64
				for j := range streams {
					events := make([]eventstore.NewEvent, eventsPerAppend)
					md := eventstore.Metadata{Actor: "bench", IdempotencyKey: uuid.NewString(), RequestID: uuid.NewString()}
					for k := range events {
						id := uuid.NewString()
						ids, keys = append(ids, id), append(keys, md.IdempotencyKey)
						data := fmt.Sprintf(`{"listingId":%q,"asin":"B0000000%02d","amazonUrl":"https://www.amazon.com/dp/B0000000%02d"}`, id, j, j)
						events[k] = eventstore.NewEvent{Type: "ListingRequested", Data: []byte(data)}
					}
					recs, err := s.Append(ctx, tx, fmt.Sprintf("account-%d", j), versions[j], events, md, time.Time{})
					if err != nil {
						b.Fatal(err)
					}
					for _, r := range recs {
						streamIDs, vers = append(streamIDs, r.StreamID), append(vers, r.StreamVersion)
					}
					versions[j] += eventsPerAppend
				}
				if v.table {
					if _, err := tx.Exec(ctx, `INSERT INTO listing_index SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[])`,
						ids, streamIDs, vers, keys); err != nil {
						b.Fatal(err)
					}
				}
				if err := tx.Commit(ctx); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*streams*eventsPerAppend), "µs/event")
			want := b.N * streams * eventsPerAppend
			var events, indexed int
			if err := pool.QueryRow(ctx, `SELECT count(*) FROM events WHERE event_type = 'ListingRequested'`).Scan(&events); err != nil {
				b.Fatal(err)
			}
			if v.table {
				if err := pool.QueryRow(ctx, `SELECT count(*) FROM listing_index l JOIN events e
					ON e.stream_id = l.stream_id AND e.stream_version = l.stream_version AND e.data->>'listingId' = l.listing_id`).Scan(&indexed); err != nil {
					b.Fatal(err)
				}
			} else {
				indexed = want
			}
			if events != want || indexed != want {
				b.Fatalf("%d events and %d listing_index rows that match them, want %d each", events, indexed, want)
			}
		})
	}
}
