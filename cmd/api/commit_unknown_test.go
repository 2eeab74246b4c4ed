package main

import (
	"context"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/testing/accountstest"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// commitCutter closes the connection as a request's COMMIT is sent, once
// armed: the client cannot know whether the transaction committed. The
// projector, the workers and the mail sender share the pool; their commits
// carry no request id and pass. The event store sends its COMMIT at the
// end of its write batch (docs/event-store.md): such a batch's connection
// is closed right after the batch has been written to it (cutAfterWrite),
// so the server has the COMMIT but the client never reads its answer.
type commitCutter struct{ armed atomic.Bool }

func (c *commitCutter) TraceQueryStart(ctx context.Context, conn *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	if strings.EqualFold(strings.TrimSpace(data.SQL), "commit") && requestID(ctx) != "" && c.armed.CompareAndSwap(true, false) {
		_ = conn.PgConn().Conn().Close()
	}
	return ctx
}

func (c *commitCutter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

func (c *commitCutter) TraceBatchStart(ctx context.Context, conn *pgx.Conn, data pgx.TraceBatchStartData) context.Context {
	if requestID(ctx) == "" || data.Batch == nil {
		return ctx
	}
	for _, q := range data.Batch.QueuedQueries {
		if strings.EqualFold(strings.TrimSpace(q.SQL), "commit") {
			if w, ok := conn.PgConn().Conn().(*cutAfterWrite); ok && c.armed.CompareAndSwap(true, false) {
				w.cut.Store(true)
			}
			break
		}
	}
	return ctx
}

func (c *commitCutter) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}
func (c *commitCutter) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData)     {}

// cutAfterWrite is a connection that closes itself after its next write
// once cut is set.
type cutAfterWrite struct {
	net.Conn
	cut atomic.Bool
}

func (w *cutAfterWrite) Write(b []byte) (int, error) {
	n, err := w.Conn.Write(b)
	if w.cut.CompareAndSwap(true, false) {
		_ = w.Conn.Close()
	}
	return n, err
}

// cutterPool is a pool on the database at url whose requests' COMMITs the
// returned cutter cuts once armed.
func cutterPool(t testing.TB, url string) (*pgxpool.Pool, *commitCutter) {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	cutter := &commitCutter{}
	cfg.ConnConfig.Tracer = cutter
	cfg.ConnConfig.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &cutAfterWrite{Conn: c}, nil
	}
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool, cutter
}

// A spend whose COMMIT got no answer is answered 503 saying the outcome is
// unknown; the retry with the same Idempotency-Key settles it, charged once.
func TestCommitOutcomeUnknownPointsAtTheIdempotencyKey(t *testing.T) {
	url := testdb.NewURL(t)
	pool, cutter := cutterPool(t, url)
	e := newTestEnvOn(t, testConfig(t), url, pool)
	s := e.seedAccount("commit@example.com")
	granted := accountstest.Do(t, e.repo(), s.ID, func(a *domain.Account, now time.Time) error {
		return a.GrantCredits(domain.CreditsGranted{Amount: 10, Source: domain.SourcePromo}, now)
	})
	e.waitFor(granted.LastPosition)
	spend := request{method: "POST", path: "/v1/listings", body: `{"amazonUrl":"https://www.amazon.com/dp/B08N5WRWNW"}`,
		header: map[string]string{"X-API-Key": s.APIKey, "Idempotency-Key": "listing-1"}}

	cutter.armed.Store(true)
	r := e.do(spend)
	if r.status != http.StatusServiceUnavailable || r.message(t) != msgCommitUnknown || r.header.Get("Retry-After") == "" ||
		errorBodyOf(t, "a cut COMMIT", r).Code != CodeCommitOutcomeUnknown {
		t.Fatalf("spend with its COMMIT cut = %d %s", r.status, r.body)
	}
	r = e.do(spend)
	if r.status != http.StatusCreated {
		t.Fatalf("the retry with the same key = %d %s", r.status, r.body)
	}
	if r2 := e.do(spend); r2.status != http.StatusCreated || r2.header.Get("Idempotent-Replayed") != "true" || string(r2.body) != string(r.body) {
		t.Fatalf("a second retry = %d %s (replayed %q)", r2.status, r2.body, r2.header.Get("Idempotent-Replayed"))
	}
	if n := e.countEvents(s.ID, "ListingRequested"); n != 1 {
		t.Fatalf("%d listings charged for one key", n)
	}

	// Without a key the answer cannot name one: it points at the read-back,
	// which shows whether the listing was made.
	unkeyed := request{method: "POST", path: "/v1/listings", body: `{"amazonUrl":"https://www.amazon.com/dp/B000000009"}`,
		header: map[string]string{"X-API-Key": s.APIKey}}
	cutter.armed.Store(true)
	r = e.do(unkeyed)
	if r.status != http.StatusServiceUnavailable || r.message(t) != msgCommitUnknownUnkeyed || strings.Contains(r.message(t), "same Idempotency-Key") ||
		errorBodyOf(t, "an unkeyed cut COMMIT", r).Code != CodeCommitOutcomeUnknown {
		t.Fatalf("an unkeyed spend with its COMMIT cut = %d %s", r.status, r.body)
	}
	// The server may still be committing what the cut connection sent (its
	// backend reads the COMMIT and flushes after the client has gone), so a
	// read-back between two equal counts of the ledger must agree with them.
	for tries := 0; ; tries++ {
		before := e.countEvents(s.ID, "ListingRequested")
		var page listingPage
		e.do(request{method: "GET", path: "/v1/listings?limit=1", header: map[string]string{"X-API-Key": s.APIKey}}).json(t, &page)
		made := len(page.Data) == 1 && page.Data[0].ASIN == "B000000009"
		n := e.countEvents(s.ID, "ListingRequested")
		if n == before && (n == 2) == made {
			break
		}
		if n == before || tries == 100 {
			t.Fatalf("the read-back says made=%v, the ledger holds %d listings", made, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// A VeRO check has no read-back: it is pointed at the key; a dashboard
	// call at its page.
	cutter.armed.Store(true)
	r = e.do(request{method: "POST", path: "/v1/vero-checks", body: `{"brand":"Nike"}`, header: map[string]string{"X-API-Key": s.APIKey}})
	if r.status != http.StatusServiceUnavailable || r.message(t) != msgCommitUnknownUnkeyedVero {
		t.Fatalf("an unkeyed VeRO check with its COMMIT cut = %d %s", r.status, r.body)
	}
	cutter.armed.Store(true)
	r = e.do(request{method: "POST", path: "/api/user/api-key/regenerate", cookie: s.Cookie})
	if r.status != http.StatusServiceUnavailable || r.message(t) != msgCommitUnknownDashboard ||
		errorBodyOf(t, "a dashboard call with its COMMIT cut", r).Code != CodeCommitOutcomeUnknown {
		t.Fatalf("a key rotation with its COMMIT cut = %d %s", r.status, r.body)
	}
}
