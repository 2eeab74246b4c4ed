package main

import (
	"context"
	"net/http"
	"testing"

	"github.com/a2e-automation/app/internal/mail"
)

func TestDevMail(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	ctx := context.Background()
	for _, subject := range []string{"first", "second"} {
		if err := e.deps.Mailbox.Send(ctx, mail.Message{To: "box@example.com", Subject: subject, Text: "body of " + subject}); err != nil {
			t.Fatal(err)
		}
	}
	r := e.do(request{method: "GET", path: "/api/dev/mail?to=BOX@example.com"})
	var list []map[string]any
	r.json(t, &list)
	if r.status != http.StatusOK || len(list) != 2 || list[0]["subject"] != "second" || list[0]["text"] != "body of second" ||
		list[0]["to"] != "box@example.com" || list[0]["sentAt"] == "" || list[1]["subject"] != "first" {
		t.Fatalf("mailbox = %d %s", r.status, r.body)
	}
	if r := e.do(request{method: "GET", path: "/api/dev/mail?to=empty@example.com"}); r.status != http.StatusOK || string(r.body) != "[]\n" {
		t.Fatalf("empty mailbox = %d %q", r.status, r.body)
	}
	if r := e.do(request{method: "GET", path: "/api/dev/mail"}); r.status != http.StatusBadRequest || r.message(t) == "" {
		t.Fatalf("without to = %d %s", r.status, r.body)
	}
}
