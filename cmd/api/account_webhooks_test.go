package main

import (
	"fmt"
	"strings"
	"testing"
)

// webhookEndpointAnswer is POST /api/webhooks/endpoints' 201.
type webhookEndpointAnswer struct {
	ID, URL, Secret, Status string
	Events                  []string
}

func TestWebhookEndpointsOverHTTP(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedVerified("hooks-http@example.com")
	other := e.seedVerified("hooks-http-other@example.com")
	r := e.do(request{method: "POST", path: "/api/webhooks/endpoints", cookie: s.Cookie,
		body: map[string]any{"url": "http://127.0.0.1:9/hooks", "events": []string{"credits.granted", "balance.low"}}})
	expect(t, "POST", r, 201, "")
	var ep webhookEndpointAnswer
	r.json(t, &ep)
	if !strings.HasPrefix(ep.Secret, "whsec_") || ep.ID == "" || ep.Status != "enabled" || len(ep.Events) != 2 {
		t.Fatalf("created %s", r.body)
	}
	r = e.do(request{method: "GET", path: "/api/webhooks/endpoints", cookie: s.Cookie})
	expect(t, "GET", r, 200, "")
	if !strings.Contains(string(r.body), ep.Secret) {
		t.Fatalf("list %s lacks the secret", r.body)
	}
	r = e.do(request{method: "GET", path: "/api/webhooks/endpoints", cookie: other.Cookie})
	if strings.Contains(string(r.body), ep.ID) {
		t.Fatal("another seller sees the endpoint")
	}
	r = e.do(request{method: "POST", path: "/api/webhooks/endpoints/" + ep.ID + "/roll-secret", cookie: s.Cookie})
	expect(t, "roll", r, 200, "")
	if strings.Contains(string(r.body), ep.Secret) || !strings.Contains(string(r.body), "whsec_") {
		t.Fatalf("roll %s", r.body)
	}
	r = e.do(request{method: "GET", path: "/api/webhooks/endpoints/" + ep.ID + "/deliveries", cookie: s.Cookie})
	expect(t, "deliveries", r, 200, "")
	r = e.do(request{method: "GET", path: "/api/webhooks/endpoints/" + ep.ID + "/deliveries?cursor=x", cookie: s.Cookie})
	expect(t, "bad cursor", r, 400, "")
	r = e.do(request{method: "DELETE", path: "/api/webhooks/endpoints/" + ep.ID, cookie: other.Cookie})
	expect(t, "another's delete", r, 404, "")
	r = e.do(request{method: "DELETE", path: "/api/webhooks/endpoints/" + ep.ID, cookie: s.Cookie})
	expect(t, "delete", r, 204, "")
	if n := e.countEvents(s.ID, "WebhookEndpointRemoved"); n != 1 {
		t.Fatalf("WebhookEndpointRemoved %d", n)
	}
}

func TestWebhookEndpointsBadInputNamesTheField(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedVerified("hooks-http-bad@example.com")
	for i := range 5 {
		r := e.do(request{method: "POST", path: "/api/webhooks/endpoints", cookie: s.Cookie,
			body: map[string]any{"url": fmt.Sprintf("https://hooks.example.com/%d", i), "events": []string{"balance.low"}}})
		expect(t, "POST", r, 201, "")
	}
	for _, c := range []struct{ name, body, field string }{
		{"not a URL", `{"url": "not a url", "events": ["balance.low"]}`, "url"},
		{"unknown event type", `{"url": "https://hooks.example.com/x", "events": ["credits.spent"]}`, "events"},
		{"no event type", `{"url": "https://hooks.example.com/x", "events": []}`, "events"},
		{"a sixth endpoint", `{"url": "https://hooks.example.com/6", "events": ["balance.low"]}`, "url"},
	} {
		r := e.do(request{method: "POST", path: "/api/webhooks/endpoints", cookie: s.Cookie, body: c.body})
		expect(t, c.name, r, 400, "")
		var b struct {
			Message string
			Errors  map[string]string
		}
		r.json(t, &b)
		if b.Errors[c.field] == "" || b.Message == "" {
			t.Fatalf("%s: %s, want an error on %s", c.name, r.body, c.field)
		}
	}
	if n := e.countEvents(s.ID, "WebhookEndpointAdded"); n != 5 {
		t.Fatalf("WebhookEndpointAdded %d, want 5", n)
	}
}
