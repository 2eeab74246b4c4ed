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

// The lines of answers cases.json does not meet (the cases: TestCases).
func TestLines(t *testing.T) {
	for _, c := range []struct {
		name   string
		op     operation
		status int
		body   string
		want   string
	}{
		{"another HTTP error", operation{Op: "account"}, 409, `{"code":"conflict","message":"no","requestId":"r"}`,
			`{"ok":false,"error":{"class":"APIError","code":"conflict","status":409,"requestId":"r","message":"no","idempotencyKey":null,"retryAfter":null,"outcomeUnknown":false,"creditsRemaining":null,"spendLimit":null}}`},
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
