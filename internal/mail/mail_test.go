package mail

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	gomail "github.com/wneessen/go-mail"

	"github.com/a2e-automation/app/internal/testing/smtptest"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func TestParseSMTPURL(t *testing.T) {
	for raw, want := range map[string]smtpSettings{
		"smtp://mail.example.com": {host: "mail.example.com", port: 587, policy: gomail.TLSMandatory, auth: gomail.SMTPAuthNoAuth},
		"smtp://u%40x:p%3Aw@mail.example.com:2525?tls=opportunistic": {host: "mail.example.com", port: 2525, user: "u@x", password: "p:w",
			policy: gomail.TLSOpportunistic, auth: gomail.SMTPAuthAutoDiscover},
		"smtp://localhost:1025?tls=none": {host: "localhost", port: 1025, policy: gomail.NoTLS, auth: gomail.SMTPAuthNoAuth},
		"smtps://user:pw@mail.example.com": {host: "mail.example.com", port: 465, user: "user", password: "pw", implicitTLS: true,
			policy: gomail.TLSMandatory, auth: gomail.SMTPAuthAutoDiscover},
	} {
		got, err := parseSMTPURL(raw)
		if err != nil || got != want {
			t.Errorf("parseSMTPURL(%q) = %+v, %v; want %+v", raw, got, err, want)
		}
	}
	for _, bad := range []string{"", "http://mail.example.com", "smtp://", "smtp://h:0", "smtp://h:x", "smtp://h?tls=maybe", "::"} {
		if _, err := parseSMTPURL(bad); err == nil {
			t.Errorf("parseSMTPURL(%q) succeeded", bad)
		}
	}
}

func TestSMTPSends(t *testing.T) {
	srv := smtptest.Start(t)
	m, err := New(srv.URL(), "A2E Automation <no-reply@example.com>", time.Second, nil, quiet())
	if err != nil {
		t.Fatal(err)
	}
	err = m.Send(context.Background(), Message{To: "seller@example.com", ReplyTo: "buyer@example.com", Subject: "Your code", Text: "Your code is 123456."})
	if err != nil {
		t.Fatal(err)
	}
	got := srv.Messages()
	if len(got) != 1 {
		t.Fatalf("server got %d messages", len(got))
	}
	for _, want := range []string{"To: <seller@example.com>", "Reply-To: <buyer@example.com>", "Subject: Your code", "123456", "no-reply@example.com"} {
		if !strings.Contains(got[0], want) {
			t.Errorf("message lacks %q:\n%s", want, got[0])
		}
	}

	// Without tls=none, STARTTLS is required and this server has none.
	strict, err := NewSMTP(strings.TrimSuffix(srv.URL(), "?tls=none"), "no-reply@example.com", time.Second, quiet())
	if err != nil {
		t.Fatal(err)
	}
	if err := strict.Send(context.Background(), Message{To: "seller@example.com", Subject: "s", Text: "t"}); err == nil {
		t.Fatal("sent without the required STARTTLS")
	}
}

func TestMailboxCapturesNewestFirst(t *testing.T) {
	ctx := context.Background()
	pool := testdb.New(t)
	m, err := New("", "unused", 0, pool, quiet())
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range []Message{
		{To: "a@example.com", Subject: "first", Text: "one"},
		{To: "b@example.com", Subject: "other", Text: "two"},
		{To: "A@example.com", Subject: "second", Text: "three"},
	} {
		if err := m.Send(ctx, msg); err != nil {
			t.Fatal(err)
		}
	}
	box := NewMailbox(pool, quiet())
	got, err := box.List(ctx, "a@EXAMPLE.com", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Subject != "second" || got[0].Text != "three" || got[1].Subject != "first" || got[0].SentAt.IsZero() {
		t.Fatalf("list = %+v", got)
	}
	if got, _ := box.List(ctx, "a@example.com", 1); len(got) != 1 {
		t.Fatalf("limit 1 gave %d", len(got))
	}
	if got, _ := box.List(ctx, "nobody@example.com", 10); got == nil || len(got) != 0 {
		t.Fatalf("empty list = %#v", got)
	}
}
