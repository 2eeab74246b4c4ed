package command

// Signed webhooks (issue 35) on a real database, a real SMTP server and a
// real HTTP receiver (httptest.Server): the signature, the order of the
// log, retries with backoff, the endpoint disabled after three days with
// the seller mailed, two workers attempting each delivery once, a rolled
// secret's two signatures, a resend, and nothing sent again by a projector
// rebuild.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/webhooks"
	"github.com/a2e-automation/app/projections"
)

// received is one request the receiver got.
type received struct {
	body      []byte
	signature string
	delivery  string
	at        time.Time
}

// receiver is a local HTTP endpoint that records what it gets and answers
// with answer(n), n counting its requests from 1.
type receiver struct {
	srv    *httptest.Server
	mu     sync.Mutex
	got    []received
	answer func(n int) int
}

func newReceiver(t *testing.T, answer func(n int) int) *receiver {
	rc := &receiver{answer: answer}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.got = append(rc.got, received{body: body, signature: r.Header.Get(webhooks.SignatureHeader),
			delivery: r.Header.Get("A2E-Delivery-Id"), at: time.Now()})
		n := len(rc.got)
		rc.mu.Unlock()
		w.WriteHeader(rc.answer(n))
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) requests() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

func always(status int) func(int) int { return func(int) int { return status } }

// hookWorker is a worker on e's database and clock, as cmd/api builds it.
func (e *env) hookWorker(opts webhooks.Options) *webhooks.Worker {
	w := webhooks.NewWorker(e.pool, e.hooks, webhooks.NewDispatcher(e.pool, e.repo.Store()), webhooks.Policy{Development: true},
		e.cmd.DisableWebhookEndpoint.Handle, slog.New(slog.NewTextHandler(io.Discard, nil)), opts)
	w.Now = e.now
	return w
}

// endpoint adds an endpoint of r at url for events.
func (e *env) endpoint(r Registered, url string, events ...string) webhooks.Endpoint {
	e.t.Helper()
	ep, err := e.cmd.AddWebhookEndpoint.Handle(context.Background(), AddWebhookEndpoint{AccountID: r.AccountID, URL: url, Events: events})
	if err != nil {
		e.t.Fatal(err)
	}
	return ep
}

// work runs the worker once.
func work(t *testing.T, w *webhooks.Worker) int {
	t.Helper()
	n, err := w.Work(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// verify checks header against body with secret as a receiver would: the
// HMAC of "t.body" among the v1 values.
func verify(header string, body []byte, secret string) bool {
	var ts string
	var sigs []string
	for part := range strings.SplitSeq(header, ",") {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	var unix int64
	if _, err := fmt.Sscan(ts, &unix); err != nil {
		return false
	}
	want := webhooks.Sign([]string{secret}, time.Unix(unix, 0), body)
	_, mine, _ := strings.Cut(want, ",v1=")
	for _, s := range sigs {
		if s == mine {
			return true
		}
	}
	return false
}

func bodyOf(t *testing.T, b []byte) webhooks.Body {
	t.Helper()
	var out webhooks.Body
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("body %s: %v", b, err)
	}
	return out
}

func TestWebhooksSignedInLogOrderAndNotSentAgainByARebuild(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	rc := newReceiver(t, always(http.StatusOK))
	r := e.verified("hooks-order@example.com")
	other := e.verified("hooks-other@example.com")
	e.grant(r.AccountID, 1, nil) // before the endpoint: never sent
	ep := e.endpoint(r, rc.srv.URL+"/hooks", domain.WebhookCreditsGranted, domain.WebhookAPIKeyCreated)
	if !strings.HasPrefix(ep.Secret, "whsec_") {
		t.Fatalf("secret %q", ep.Secret)
	}
	for i := range 5 {
		e.grant(r.AccountID, int64(10+i), nil)
	}
	if _, err := e.cmd.RotateAPIKey.Handle(ctx, RotateAPIKey{AccountID: r.AccountID}); err != nil {
		t.Fatal(err)
	}
	e.grant(other.AccountID, 99, nil) // another account's: not this endpoint's
	w := e.hookWorker(webhooks.Options{})
	if n := work(t, w); n != 6 {
		t.Fatalf("attempts %d, want 6", n)
	}
	got := rc.requests()
	if len(got) != 6 {
		t.Fatalf("received %d, want 6", len(got))
	}
	for i, g := range got {
		if !verify(g.signature, g.body, ep.Secret) {
			t.Fatalf("request %d: signature %q does not verify", i, g.signature)
		}
		b := bodyOf(t, g.body)
		data := b.Data.(map[string]any)
		if i < 5 {
			if b.Type != "credits.granted" || data["amount"] != float64(10+i) || data["accountId"] != r.AccountID {
				t.Fatalf("request %d: %s", i, g.body)
			}
		} else if b.Type != "api_key.created" || data["prefix"] == nil || strings.Contains(string(g.body), "hash") {
			t.Fatalf("request %d: %s", i, g.body)
		}
		if !strings.HasPrefix(b.ID, "evt_") || b.CreatedAt == "" {
			t.Fatalf("request %d: id %q createdAt %q", i, b.ID, b.CreatedAt)
		}
	}
	// The delivery log shows them, newest first.
	page, _, err := e.hooks.Deliveries(ctx, r.AccountID, ep.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(page) != 6 || page[0].EventType != "api_key.created" || page[0].Status != "delivered" || page[0].Attempts != 1 ||
		page[0].LastStatus == nil || *page[0].LastStatus != 200 || page[0].LatencyMs == nil {
		t.Fatalf("deliveries %+v", page)
	}
	if _, _, err := e.hooks.Deliveries(ctx, other.AccountID, ep.ID, ""); !errors.Is(err, domain.ErrWebhookEndpointNotFound) {
		t.Fatalf("another account's endpoint: %v", err)
	}

	// A projector rebuild, then the worker again: nothing new.
	proj := projections.NewProjector(e.pool, e.repo.Store(), slog.New(slog.NewTextHandler(io.Discard, nil)), projections.All()...)
	if err := proj.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	for _, name := range proj.Names() {
		if err := proj.Rebuild(ctx, name, 5); err != nil {
			t.Fatal(err)
		}
	}
	if n := work(t, w); n != 0 || len(rc.requests()) != 6 {
		t.Fatalf("after a rebuild: %d attempts, %d received", n, len(rc.requests()))
	}
	if n := e.count(`SELECT count(*) FROM webhook_deliveries`); n != 6 {
		t.Fatalf("deliveries %d after the rebuild, want 6", n)
	}

	// A resend sends the same body again, signed afresh.
	if err := e.cmd.ResendWebhookDelivery.Handle(ctx, ResendWebhookDelivery{AccountID: r.AccountID, EndpointID: ep.ID,
		DeliveryID: page[3].ID}); err != nil {
		t.Fatal(err)
	}
	if err := e.cmd.ResendWebhookDelivery.Handle(ctx, ResendWebhookDelivery{AccountID: other.AccountID, EndpointID: ep.ID,
		DeliveryID: page[3].ID}); !errors.Is(err, webhooks.ErrDeliveryNotFound) {
		t.Fatalf("another account's resend: %v", err)
	}
	if n := work(t, w); n != 1 {
		t.Fatalf("resend: %d attempts", n)
	}
	got = rc.requests()
	if len(got) != 7 || got[6].delivery != page[3].ID || string(got[6].body) != string(got[2].body) {
		t.Fatalf("resend received %d: %s", len(got), got[len(got)-1].body)
	}
}

func TestWebhookRetriedWithBackoffUntilTheFourthAttempt(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rc := newReceiver(t, func(n int) int {
		if n <= 3 {
			return http.StatusInternalServerError
		}
		return http.StatusNoContent
	})
	r := e.verified("hooks-retry@example.com")
	e.endpoint(r, rc.srv.URL, domain.WebhookCreditsGranted)
	var mu sync.Mutex
	var asked []int
	w := e.hookWorker(webhooks.Options{Backoff: func(n int) time.Duration {
		mu.Lock()
		asked = append(asked, n)
		mu.Unlock()
		return time.Minute << (n - 1) // 1, 2, 4 minutes
	}})
	e.grant(r.AccountID, 5, nil)
	e.grant(r.AccountID, 6, nil) // waits behind the first: order per endpoint
	if n := work(t, w); n != 1 {
		t.Fatalf("first pass: %d attempts", n)
	}
	for i, wait := range []time.Duration{time.Minute, 2 * time.Minute, 4 * time.Minute} {
		e.advance(wait - time.Second)
		if n := work(t, w); n != 0 {
			t.Fatalf("retry %d before its backoff ended: %d attempts", i+1, n)
		}
		e.advance(time.Second)
		if n := work(t, w); n < 1 {
			t.Fatalf("retry %d: no attempt", i+1)
		}
	}
	got := rc.requests()
	if len(got) != 5 {
		t.Fatalf("received %d, want 4 of the first event and then the second", len(got))
	}
	first := bodyOf(t, got[0].body).ID
	for i := range 4 {
		if bodyOf(t, got[i].body).ID != first {
			t.Fatalf("request %d is another event: order broken", i)
		}
	}
	if b := bodyOf(t, got[4].body); b.ID == first || b.Data.(map[string]any)["amount"] != float64(6) {
		t.Fatalf("fifth request %s", got[4].body)
	}
	if fmt.Sprint(asked) != "[1 2 3]" {
		t.Fatalf("backoff asked for %v", asked)
	}
	if n := e.count(`SELECT count(*) FROM webhook_deliveries WHERE status = 'delivered' AND attempts = 4`); n != 1 {
		t.Fatalf("deliveries delivered on the 4th attempt: %d", n)
	}
	if n := e.count(`SELECT count(*) FROM webhook_endpoints WHERE failing_since IS NOT NULL`); n != 0 {
		t.Fatal("a success leaves the endpoint failing")
	}
}

func TestWebhookEndpointFailingThreeDaysIsDisabledAndTheSellerMailed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rc := newReceiver(t, always(http.StatusBadGateway))
	r := e.verified("hooks-dead@example.com")
	ep := e.endpoint(r, rc.srv.URL, domain.WebhookCreditsGranted)
	w := e.hookWorker(webhooks.Options{Backoff: func(int) time.Duration { return 6 * time.Hour }})
	e.grant(r.AccountID, 5, nil)
	start := e.now()
	work(t, w)
	for e.now().Sub(start) < 71*time.Hour {
		e.advance(6 * time.Hour)
		work(t, w)
		if e.events(r.AccountID)["WebhookEndpointDisabled"] != 0 && e.now().Sub(start) < 72*time.Hour {
			t.Fatalf("disabled after %s", e.now().Sub(start))
		}
	}
	e.advance(6 * time.Hour)
	work(t, w)
	if n := e.events(r.AccountID)["WebhookEndpointDisabled"]; n != 1 {
		t.Fatalf("WebhookEndpointDisabled %d after %s", n, e.now().Sub(start))
	}
	attempts := len(rc.requests())
	if attempts != 13 { // at 0, 6 h, …, 72 h
		t.Fatalf("attempts %d, want 13", attempts)
	}
	list, err := e.hooks.List(context.Background(), r.AccountID)
	if err != nil || len(list) != 1 || list[0].Status != "disabled" {
		t.Fatalf("endpoints %+v %v", list, err)
	}
	if n := e.count(`SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'failed'`, ep.ID); n != 1 {
		t.Fatalf("failed deliveries %d", n)
	}
	e.sender.Now = e.now // the mail was queued at the test's clock
	if got := countContaining(e.mailsTo(r.Email), "webhook endpoint was disabled"); got != 1 {
		t.Fatalf("disabled mails %d", got)
	}
	// Nothing more is sent to it.
	e.grant(r.AccountID, 5, nil)
	e.advance(24 * time.Hour)
	work(t, w)
	if len(rc.requests()) != attempts {
		t.Fatal("a disabled endpoint received more")
	}
}

func TestWebhookTwoWorkersAttemptEachDeliveryOnceInOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rc := newReceiver(t, always(http.StatusOK))
	a, b := e.verified("hooks-two-a@example.com"), e.verified("hooks-two-b@example.com")
	e.endpoint(a, rc.srv.URL+"/a", domain.WebhookCreditsGranted)
	e.endpoint(a, rc.srv.URL+"/a2", domain.WebhookCreditsGranted)
	e.endpoint(b, rc.srv.URL+"/b", domain.WebhookCreditsGranted)
	for i := range 15 {
		e.grant(a.AccountID, int64(i+1), nil)
		e.grant(b.AccountID, int64(i+1), nil)
	}
	w1, w2 := e.hookWorker(webhooks.Options{}), e.hookWorker(webhooks.Options{})
	var wg sync.WaitGroup
	for _, w := range []*webhooks.Worker{w1, w2} {
		wg.Go(func() {
			for range 20 {
				if _, err := w.Work(context.Background()); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	got := rc.requests()
	if len(got) != 45 {
		t.Fatalf("received %d, want 45 (15 to each of 3 endpoints)", len(got))
	}
	seen := map[string]int{}
	last := map[string]float64{}
	for _, g := range got {
		seen[g.delivery]++
		if seen[g.delivery] > 1 {
			t.Fatalf("delivery %s attempted twice", g.delivery)
		}
	}
	if n := e.count(`SELECT count(*) FROM webhook_deliveries WHERE status = 'delivered' AND attempts = 1`); n != 45 {
		t.Fatalf("delivered once: %d of 45", n)
	}
	// Per endpoint, in the order of the log (the amounts rise).
	rows, err := e.pool.Query(context.Background(), `SELECT endpoint_id, position, delivered_at FROM webhook_deliveries ORDER BY delivered_at, position`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var ep string
		var pos float64
		var at time.Time
		if err := rows.Scan(&ep, &pos, &at); err != nil {
			t.Fatal(err)
		}
		if pos < last[ep] {
			t.Fatalf("endpoint %s: position %v after %v", ep, pos, last[ep])
		}
		last[ep] = pos
	}
}

func TestWebhookRolledSecretSignsTwiceForADay(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	rc := newReceiver(t, always(http.StatusOK))
	r := e.verified("hooks-roll@example.com")
	ep := e.endpoint(r, rc.srv.URL, domain.WebhookCreditsGranted)
	secret, err := e.cmd.RollWebhookSecret.Handle(ctx, RollWebhookSecret{AccountID: r.AccountID, EndpointID: ep.ID})
	if err != nil || secret == ep.Secret || !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("rolled %q: %v", secret, err)
	}
	w := e.hookWorker(webhooks.Options{})
	e.grant(r.AccountID, 1, nil)
	work(t, w)
	e.advance(24*time.Hour + time.Second)
	e.grant(r.AccountID, 2, nil)
	work(t, w)
	got := rc.requests()
	if len(got) != 2 {
		t.Fatalf("received %d", len(got))
	}
	if strings.Count(got[0].signature, "v1=") != 2 || !verify(got[0].signature, got[0].body, secret) || !verify(got[0].signature, got[0].body, ep.Secret) {
		t.Fatalf("within the day: %s", got[0].signature)
	}
	if strings.Count(got[1].signature, "v1=") != 1 || !verify(got[1].signature, got[1].body, secret) || verify(got[1].signature, got[1].body, ep.Secret) {
		t.Fatalf("after the day: %s", got[1].signature)
	}
	if n := e.events(r.AccountID)["WebhookSecretRolled"]; n != 1 {
		t.Fatalf("WebhookSecretRolled %d", n)
	}
	var stored string
	if err := e.pool.QueryRow(ctx, `SELECT secret FROM webhook_endpoints WHERE id = $1`, ep.ID).Scan(&stored); err != nil || strings.Contains(stored, "whsec_") {
		t.Fatalf("secret stored in the clear: %v", err)
	}
}

func TestWebhookEndpointsRefuseBadInputAndASixth(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	r := e.verified("hooks-bad@example.com")
	field := func(err error) string {
		var f *InvalidField
		if !errors.As(err, &f) {
			t.Fatalf("error %v is not about a field", err)
		}
		return f.Field
	}
	for _, c := range []struct {
		url    string
		events []string
		field  string
	}{
		{"not a url", []string{"credits.granted"}, "url"},
		{"ftp://example.com/x", []string{"credits.granted"}, "url"},
		{"https://example.com/x", []string{"credits.spent"}, "events"},
		{"https://example.com/x", nil, "events"},
	} {
		_, err := e.cmd.AddWebhookEndpoint.Handle(ctx, AddWebhookEndpoint{AccountID: r.AccountID, URL: c.url, Events: c.events})
		if got := field(err); got != c.field {
			t.Fatalf("%q %v: field %q, want %q", c.url, c.events, got, c.field)
		}
	}
	var ids []string
	for i := range domain.MaxWebhookEndpoints {
		ids = append(ids, e.endpoint(r, fmt.Sprintf("https://example.com/%d", i), domain.WebhookBalanceLow).ID)
	}
	_, err := e.cmd.AddWebhookEndpoint.Handle(ctx, AddWebhookEndpoint{AccountID: r.AccountID, URL: "https://example.com/6",
		Events: []string{domain.WebhookBalanceLow}})
	if field(err) != "url" || !errors.Is(err, domain.ErrTooManyWebhookEndpoints) {
		t.Fatalf("sixth: %v", err)
	}
	if err := e.cmd.RemoveWebhookEndpoint.Handle(ctx, RemoveWebhookEndpoint{AccountID: r.AccountID, EndpointID: ids[0]}); err != nil {
		t.Fatal(err)
	}
	if err := e.cmd.RemoveWebhookEndpoint.Handle(ctx, RemoveWebhookEndpoint{AccountID: r.AccountID, EndpointID: ids[0]}); !errors.Is(err, domain.ErrWebhookEndpointNotFound) {
		t.Fatalf("removed twice: %v", err)
	}
	if n := e.count(`SELECT count(*) FROM webhook_endpoints WHERE account_id = $1`, r.AccountID); n != 4 {
		t.Fatalf("rows %d", n)
	}
	ev := e.events(r.AccountID)
	if ev["WebhookEndpointAdded"] != 5 || ev["WebhookEndpointRemoved"] != 1 {
		t.Fatalf("events %v", ev)
	}
}

func TestWebhookHangingReceiverIsCutAtTenSeconds(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	r := e.verified("hooks-hang@example.com")
	e.endpoint(r, srv.URL, domain.WebhookCreditsGranted)
	e.grant(r.AccountID, 1, nil)
	w := e.hookWorker(webhooks.Options{}) // the default 10 s
	start := time.Now()
	work(t, w)
	took := time.Since(start)
	if took < 10*time.Second || took > 15*time.Second {
		t.Fatalf("attempt took %s, want about 10 s", took)
	}
	var status string
	var ms int
	if err := e.pool.QueryRow(context.Background(), `SELECT status, last_latency_ms FROM webhook_deliveries`).Scan(&status, &ms); err != nil {
		t.Fatal(err)
	}
	if status != "pending" || ms < 10_000 {
		t.Fatalf("after a hang: %s, %d ms", status, ms)
	}
}

// A named key's creation and revocation reach an endpoint subscribed to
// api_key.created and api_key.revoked: its name, mode and prefix, never the
// key or its hash.
func TestWebhookAPIKeyCreatedAndRevoked(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	rc := newReceiver(t, always(http.StatusOK))
	r := e.verified("hooks-keys@example.com")
	ep := e.endpoint(r, rc.srv.URL+"/hooks", domain.WebhookAPIKeyCreated, domain.WebhookAPIKeyRevoked)
	created, err := e.cmd.CreateAPIKey.Handle(ctx, CreateAPIKey{AccountID: r.AccountID, Name: "Second PC", Mode: domain.KeyModeLive})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.cmd.RevokeAPIKey.Handle(ctx, RevokeAPIKey{AccountID: r.AccountID, KeyID: created.Key.ID}); err != nil {
		t.Fatal(err)
	}
	if n := work(t, e.hookWorker(webhooks.Options{})); n != 2 {
		t.Fatalf("attempts %d, want 2", n)
	}
	got := rc.requests()
	if len(got) != 2 {
		t.Fatalf("received %d, want 2", len(got))
	}
	for _, g := range got {
		if !verify(g.signature, g.body, ep.Secret) || strings.Contains(string(g.body), "hash") || strings.Contains(string(g.body), created.APIKey) {
			t.Fatalf("body %s", g.body)
		}
	}
	first, second := bodyOf(t, got[0].body), bodyOf(t, got[1].body)
	fd, sd := first.Data.(map[string]any), second.Data.(map[string]any)
	if first.Type != "api_key.created" || fd["keyId"] != created.Key.ID || fd["name"] != "Second PC" || fd["mode"] != "live" || fd["prefix"] == "" {
		t.Fatalf("created: %s", got[0].body)
	}
	if second.Type != "api_key.revoked" || sd["keyId"] != created.Key.ID || sd["reason"] != "revoked" {
		t.Fatalf("revoked: %s", got[1].body)
	}
}
