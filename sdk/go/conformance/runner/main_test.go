package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	a2e "github.com/a2e-automation/app/sdk/go"
)

// lineOf runs op against an API answering status and body, and answers the
// line the runner would print.
func lineOf(t *testing.T, op operation, status int, body string) string {
	t.Helper()
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	defer api.Close()
	line, err := run(context.Background(), a2e.NewClient("k", a2e.WithBaseURL(api.URL), a2e.WithMaxRetries(0)), op)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(line)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestLines(t *testing.T) {
	const listing = `{"id":"L1","asin":"B08N5WRWNW","amazonUrl":"https://www.amazon.com/dp/B08N5WRWNW","status":"queued","creditsRemaining":0,"createdAt":"2026-01-02T03:04:05Z"}`
	for _, c := range []struct {
		name   string
		op     operation
		status int
		body   string
		want   string
	}{
		{"create", operation{Op: "create", IdempotencyKey: "k1"}, 201, listing,
			`{"ok":true,"result":{"id":"L1","asin":"B08N5WRWNW","amazonUrl":"https://www.amazon.com/dp/B08N5WRWNW","status":"queued","creditsRemaining":0,"createdAt":"2026-01-02T03:04:05Z","idempotencyKey":"k1"},"idempotencyKey":"k1"}`},
		{"402", operation{Op: "create", IdempotencyKey: "k1"}, 402, `{"code":"insufficient_credits","message":"Insufficient credits","requestId":"r","creditsRemaining":0}`,
			`{"ok":false,"error":{"class":"InsufficientCreditsError","code":"insufficient_credits","status":402,"requestId":"r","message":"Insufficient credits","idempotencyKey":"k1","retryAfter":null,"outcomeUnknown":false,"creditsRemaining":0,"spendLimit":null}}`},
		{"another HTTP error", operation{Op: "account"}, 409, `{"code":"conflict","message":"no","requestId":"r"}`,
			`{"ok":false,"error":{"class":"APIError","code":"conflict","status":409,"requestId":"r","message":"no","idempotencyKey":null,"retryAfter":null,"outcomeUnknown":false,"creditsRemaining":null,"spendLimit":null}}`},
		{"last page", operation{Op: "list", Limit: 2}, 200, `{"data":[],"nextCursor":null}`,
			`{"ok":true,"result":{"data":[],"nextCursor":null}}`},
		{"found by key: none", operation{Op: "findByIdempotencyKey", IdempotencyKey: "k"}, 200, `{"data":[],"nextCursor":null}`,
			`{"ok":true,"result":null}`},
	} {
		if got := lineOf(t, c.op, c.status, c.body); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
	}
}

func TestConnectionErrorLine(t *testing.T) {
	line, err := run(context.Background(), a2e.NewClient("k", a2e.WithBaseURL("http://127.0.0.1:1"), a2e.WithMaxRetries(0)),
		operation{Op: "retrieve", ID: "L1"})
	if err != nil {
		t.Fatal(err)
	}
	f, ok := line.(failure)
	if !ok || f.Error.Class != "ConnectionError" || f.Error.Code != nil || f.Error.Status != nil || f.Error.RequestID != nil || f.Error.Message == "" {
		t.Fatalf("line %+v", line)
	}
}
