package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/testing/accountstest"
)

// awkward is a description that RFC 4180 has to quote: a comma, quotes, a
// line break and text beyond ASCII.
const awkward = "Pack, \"big\" one\nsecond line – Grüße ✓ 日本"

// usageHistory gives s a subscription, two listings, a VeRO check, a
// bought credit pack with the awkward description and half of its payment
// refunded, all today; it returns the credits the refund took back.
func (e *testEnv) usageHistory(s seeded) int64 {
	e.t.Helper()
	e.subscribe(s.ID)
	pay := "pi_usage_" + s.ID[:8]
	res := accountstest.Do(e.t, e.repo(), s.ID, func(a *domain.Account, now time.Time) error {
		for i := range 2 {
			if err := a.RequestListing(fmt.Sprintf("l-%d", i), "B000TEST01", "", now); err != nil {
				return err
			}
		}
		if err := a.PerformVeroCheck("v-1", "Acme", false, now); err != nil {
			return err
		}
		if err := a.RecordPayment(domain.PaymentRecorded{PaymentID: pay, Kind: domain.PaymentKindCredits, Description: awkward,
			AmountCents: 999, Status: domain.PaymentPaid, Credits: 100, GrantID: "grant-" + pay, InvoiceURL: "https://pay.example/" + pay}, now); err != nil {
			return err
		}
		if err := a.GrantCredits(domain.CreditsGranted{GrantID: "grant-" + pay, Amount: 100, Source: domain.SourcePurchase, Reference: pay}, now); err != nil {
			return err
		}
		return a.RefundPayment(pay, 499, now)
	})
	e.waitFor(res.LastPosition)
	var refunded int64
	if err := e.deps.Pool.QueryRow(context.Background(), `SELECT coalesce(sum((data->>'amount')::bigint + coalesce((data->>'debt')::bigint, 0)), 0)
		FROM events WHERE stream_id = $1 AND event_type = 'CreditsRevoked'`, domain.StreamID(s.ID)).Scan(&refunded); err != nil {
		e.t.Fatal(err)
	}
	if refunded <= 0 {
		e.t.Fatalf("the refund took back %d credits", refunded)
	}
	return refunded
}

func TestUsageDaily(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedAccount("daily@example.com")
	other := e.seedAccount("other-daily@example.com")
	refunded := e.usageHistory(s)
	e.usageHistory(other) // another account's usage is not s's

	today := time.Now().UTC().Truncate(24 * time.Hour)
	get := func(query string) (response, usageDailyResponse) {
		r := e.do(request{method: "GET", path: "/api/usage/daily" + query, cookie: s.Cookie})
		var u usageDailyResponse
		if r.status == http.StatusOK {
			r.json(t, &u)
		}
		return r, u
	}
	// Two days before today to tomorrow (a day still to come is allowed):
	// four contiguous days, the empty ones with zeros, today's usage on
	// the day its events were recorded (around midnight, possibly two).
	from := today.AddDate(0, 0, -2)
	r, u := get("?from=" + from.Format(time.DateOnly) + "&to=" + today.AddDate(0, 0, 1).Format(time.DateOnly))
	if r.status != http.StatusOK || len(u.Days) != 4 {
		t.Fatalf("daily usage = %d %s", r.status, r.body)
	}
	var sum usageDayResponse
	for i, d := range u.Days {
		if want := from.AddDate(0, 0, i).Format(time.DateOnly); d.Date != want {
			t.Fatalf("day %d is %s, want %s: %s", i, d.Date, want, r.body)
		}
		sum.Credits, sum.Listings, sum.VeroChecks, sum.Refunded = sum.Credits+d.Credits, sum.Listings+d.Listings, sum.VeroChecks+d.VeroChecks, sum.Refunded+d.Refunded
	}
	if want := (usageDayResponse{Credits: 3, Listings: 2, VeroChecks: 1, Refunded: refunded}); sum != want {
		t.Fatalf("summed days = %+v, want %+v: %s", sum, want, r.body)
	}
	if u.Days[0] != (usageDayResponse{Date: from.Format(time.DateOnly)}) {
		t.Fatalf("a day without usage = %+v", u.Days[0])
	}
	if !bytes.Contains(r.body, []byte(`"veroChecks":`)) || !bytes.Contains(r.body, []byte(`"refunded":`)) {
		t.Fatalf("field names: %s", r.body)
	}

	// No range: the last 30 days, today the last.
	r, u = get("")
	if r.status != http.StatusOK || len(u.Days) != 30 || u.Days[29].Date != today.Format(time.DateOnly) {
		t.Fatalf("default range = %d, %d days, last %v", r.status, len(u.Days), u.Days[len(u.Days)-1])
	}
	// 366 days, both ends counted, is the longest range.
	if r, u = get("?from=2024-01-01&to=2024-12-31"); r.status != http.StatusOK || len(u.Days) != 366 {
		t.Fatalf("366 days = %d, %d days", r.status, len(u.Days))
	}

	for _, path := range []string{"/api/usage/daily", "/api/usage/daily.csv", "/api/transactions.csv"} {
		for query, field := range map[string]string{
			"?from=2026-02-30&to=2026-03-01": "from",
			"?from=yesterday":                "from",
			"?from=2026-03-01&to=2026-3-2":   "to",
			"?from=2026-03-02&to=2026-03-01": "to",  // reversed
			"?from=2025-01-01&to=2026-01-02": "to",  // 367 days
			"?key=":                          "key", // empty
		} {
			r := e.do(request{method: "GET", path: path + query, cookie: s.Cookie})
			if p := r.problem(t); r.status != http.StatusBadRequest || p.Errors[field] == "" || p.Message == "" {
				t.Errorf("%s%s = %d %s; want 400 naming %s", path, query, r.status, r.body, field)
			}
		}
		if path == "/api/transactions.csv" { // payments are not made with a key
			r := e.do(request{method: "GET", path: path + "?key=k1", cookie: s.Cookie})
			if p := r.problem(t); r.status != http.StatusBadRequest || p.Errors["key"] == "" {
				t.Errorf("%s?key=k1 = %d %s; want 400 naming key", path, r.status, r.body)
			}
		}
		if r := e.do(request{method: "GET", path: path}); r.status != http.StatusUnauthorized {
			t.Errorf("%s without a session = %d", path, r.status)
		}
	}
}

// readCSV parses an export, checking its headers.
func readCSV(t *testing.T, r response, filename string) [][]string {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("export = %d %s", r.status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "text/csv; charset=utf-8" {
		t.Fatalf("Content-Type %q", ct)
	}
	if cd := r.header.Get("Content-Disposition"); cd != `attachment; filename=`+filename {
		t.Fatalf("Content-Disposition %q, want attachment of %s", cd, filename)
	}
	rows, err := csv.NewReader(bytes.NewReader(r.body)).ReadAll()
	if err != nil {
		t.Fatalf("parse %q: %v", r.body, err)
	}
	return rows
}

func TestCSVExports(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedAccount("csv@example.com")
	refunded := e.usageHistory(s)
	today := time.Now().UTC().Truncate(24 * time.Hour)
	from, to := today.AddDate(0, 0, -1).Format(time.DateOnly), today.AddDate(0, 0, 1).Format(time.DateOnly)
	span := "?from=" + from + "&to=" + to

	rows := readCSV(t, e.do(request{method: "GET", path: "/api/transactions.csv" + span, cookie: s.Cookie}),
		"transactions-"+from+"-to-"+to+".csv")
	pay := "pi_usage_" + s.ID[:8]
	if len(rows) != 2 || strings.Join(rows[0], ",") != "id,transactionDate,description,amount,currency,status,invoiceUrl" {
		t.Fatalf("transactions CSV = %q", rows)
	}
	got := rows[1]
	date, err := time.Parse(time.RFC3339, got[1])
	if err != nil || time.Since(date) > time.Hour {
		t.Fatalf("transaction date %q", got[1])
	}
	got[1] = ""
	if want := []string{pay, "", awkward, "9.99", "USD", domain.PaymentPartiallyRefunded, "https://pay.example/" + pay}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("transaction row = %q, want %q", got, want)
	}
	// A range of other days holds none: the header alone.
	if rows := readCSV(t, e.do(request{method: "GET", path: "/api/transactions.csv?from=2020-01-01&to=2020-01-31", cookie: s.Cookie}),
		"transactions-2020-01-01-to-2020-01-31.csv"); len(rows) != 1 {
		t.Fatalf("an empty range = %q", rows)
	}

	rows = readCSV(t, e.do(request{method: "GET", path: "/api/usage/daily.csv" + span, cookie: s.Cookie}), "usage-daily-"+from+"-to-"+to+".csv")
	if len(rows) != 4 || strings.Join(rows[0], ",") != "date,credits,listings,veroChecks,refunded" {
		t.Fatalf("usage CSV = %q", rows)
	}
	var js usageDailyResponse
	e.do(request{method: "GET", path: "/api/usage/daily" + span, cookie: s.Cookie}).json(t, &js)
	var total int64
	for i, d := range js.Days {
		want := []string{d.Date, fmt.Sprint(d.Credits), fmt.Sprint(d.Listings), fmt.Sprint(d.VeroChecks), fmt.Sprint(d.Refunded)}
		if strings.Join(rows[i+1], ",") != strings.Join(want, ",") {
			t.Fatalf("usage CSV row %d = %q, JSON %q", i+1, rows[i+1], want)
		}
		total += d.Refunded
	}
	if total != refunded {
		t.Fatalf("refunded %d, want %d", total, refunded)
	}
}

// The transactions export streams: 100,000 payments (about 30 MB of CSV)
// go out row by row while the process's heap stays far below the size of
// the answer, and the first bytes arrive long before the last row is read.
func TestTransactionsCSVStreams(t *testing.T) {
	// Not parallel: it reads the process's heap, which other tests would grow.
	const n = 100_000
	e := newTestEnv(t)
	s := e.seedAccount("many@example.com")
	pad := strings.Repeat("x", 250)
	e.exec(`INSERT INTO transactions (payment_id, account_id, transaction_date, description, amount_cents, status)
		SELECT 'pi_' || lpad(i::text, 6, '0'), $1, $4::timestamptz + i * interval '1 millisecond', 'Pack ' || i || ', "x" ' || $2, 999, 'paid'
		FROM generate_series(1, $3::int) i`, s.ID, pad, n, startOfTodayUTC())
	// The table's statistics, as a live table has them: without, the planner
	// may sort all 100,000 rows before the first (its plan, not the export's
	// streaming, would then decide when the first row comes).
	e.exec(`ANALYZE transactions`)

	// A low GC target, so the heap follows what is live rather than
	// garbage waiting for a collection.
	defer debug.SetGCPercent(debug.SetGCPercent(5))
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
		}
	}()

	today := startOfTodayUTC().Format(time.DateOnly)
	req, err := http.NewRequest("GET", e.srv.URL+"/api/transactions.csv?from="+today+"&to="+today, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.AddCookie(s.Cookie)
	started := time.Now()
	res, err := e.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK || res.ContentLength != -1 {
		t.Fatalf("export = %d, length %d (want a streamed answer)", res.StatusCode, res.ContentLength)
	}
	counted := &countingReader{r: res.Body}
	cr := csv.NewReader(counted)
	cr.ReuseRecord = true
	rows := 0
	var firstRow time.Duration
	var last []string
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if rows == 1 {
			firstRow = time.Since(started)
		}
		rows++
		last = rec
	}
	took := time.Since(started)
	close(stop)
	<-sampled
	if rows != n+1 || last[0] != fmt.Sprintf("pi_%06d", n) || !strings.HasPrefix(last[2], fmt.Sprintf("Pack %d, \"x\" ", n)) {
		t.Fatalf("%d rows, last %q", rows, last)
	}
	grew := int64(peak.Load()) - int64(base.HeapAlloc)
	t.Logf("%d rows, %d MB of CSV in %v (first row after %v); heap grew at most %.1f MB", n, counted.n>>20, took, firstRow, float64(grew)/(1<<20))
	if counted.n < 25<<20 {
		t.Fatalf("only %d bytes: the test needs an answer far larger than its bound", counted.n)
	}
	if grew > 10<<20 {
		t.Fatalf("the heap grew by %d MB while %d MB streamed: the export holds rows", grew>>20, counted.n>>20)
	}
	if firstRow > took/2 {
		t.Fatalf("the first row came after %v of %v: not streamed", firstRow, took)
	}
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// Usage by key (issue 35 item 5, issue 34 item 1): spends made with the
// Default key and with a second key are each their key's, on the day and
// in the CSV; a key that is not the seller's has no usage; the days without
// a key are everything, as before.
func TestUsageDailyByKey(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedAccount("daily-keys@example.com")
	other := e.seedAccount("other-daily-keys@example.com")
	e.waitFor(accountstest.Do(t, e.repo(), s.ID, accountstest.Grant(10, domain.SourcePurchase, nil)).LastPosition)
	keys := e.keysOf(s)
	laptop := e.createKey(s, map[string]any{"name": "Laptop"})
	for _, key := range []string{s.APIKey, laptop.APIKey, laptop.APIKey} {
		expect(t, "a spend", spendWith(e, key), 201, "")
	}
	otherKey := e.keysOf(other)[0]
	var last int64
	if err := e.deps.Pool.QueryRow(context.Background(), `SELECT max(global_position) FROM events`).Scan(&last); err != nil {
		t.Fatal(err)
	}
	e.waitFor(last)

	today := time.Now().UTC().Truncate(24 * time.Hour)
	span := "?from=" + today.AddDate(0, 0, -1).Format(time.DateOnly) + "&to=" + today.AddDate(0, 0, 1).Format(time.DateOnly)
	sum := func(query string) usageDayResponse {
		t.Helper()
		r := e.do(request{method: "GET", path: "/api/usage/daily" + span + query, cookie: s.Cookie})
		var u usageDailyResponse
		if r.status != http.StatusOK {
			t.Fatalf("daily usage%s = %d %s", query, r.status, r.body)
		}
		r.json(t, &u)
		var total usageDayResponse
		for _, d := range u.Days {
			total.Credits, total.Listings, total.VeroChecks, total.Refunded = total.Credits+d.Credits, total.Listings+d.Listings,
				total.VeroChecks+d.VeroChecks, total.Refunded+d.Refunded
		}
		return total
	}
	for query, want := range map[string]usageDayResponse{
		"":                    {Credits: 3, Listings: 3},
		"&key=" + keys[0].ID:  {Credits: 1, Listings: 1},
		"&key=" + laptop.ID:   {Credits: 2, Listings: 2},
		"&key=" + otherKey.ID: {}, // another seller's key: none of s's usage
		"&key=no-such-key-id": {},
	} {
		if got := sum(query); got != want {
			t.Errorf("usage%s = %+v, want %+v", query, got, want)
		}
	}
	rows := readCSV(t, e.do(request{method: "GET", path: "/api/usage/daily.csv" + span + "&key=" + laptop.ID, cookie: s.Cookie}),
		"usage-daily-"+today.AddDate(0, 0, -1).Format(time.DateOnly)+"-to-"+today.AddDate(0, 0, 1).Format(time.DateOnly)+".csv")
	var credits int
	for _, row := range rows[1:] {
		var n int
		fmt.Sscan(row[1], &n)
		credits += n
	}
	if credits != 2 {
		t.Fatalf("the Laptop key's CSV counts %d credits, want 2: %v", credits, rows)
	}
}

// startOfTodayUTC is midnight UTC today: rows from it on are today's
// whatever the hour (rows an hour back were yesterday's in the first hour
// after midnight, and the export of today missed them).
func startOfTodayUTC() time.Time {
	return time.Now().UTC().Truncate(24 * time.Hour)
}
