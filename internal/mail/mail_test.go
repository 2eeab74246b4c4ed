package mail

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"

	gomail "github.com/wneessen/go-mail"

	"github.com/a2e-automation/app/internal/testdb"
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

// fakeSMTP is a minimal SMTP server without TLS that keeps each message's
// DATA.
type fakeSMTP struct {
	addr string
	mu   sync.Mutex
	data []string
}

func newFakeSMTP(t *testing.T) *fakeSMTP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	f := &fakeSMTP{addr: ln.Addr().String()}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go f.serve(conn)
		}
	}()
	return f
}

func (f *fakeSMTP) serve(conn net.Conn) {
	defer conn.Close()
	r := bufio.NewReader(conn)
	say := func(s string) { _, _ = io.WriteString(conn, s+"\r\n") }
	say("220 fake ESMTP")
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		switch cmd := strings.ToUpper(strings.Fields(line + " x")[0]); cmd {
		case "EHLO", "HELO":
			say("250-fake")
			say("250 8BITMIME")
		case "DATA":
			say("354 go ahead")
			var msg strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				msg.WriteString(l)
			}
			f.mu.Lock()
			f.data = append(f.data, msg.String())
			f.mu.Unlock()
			say("250 queued")
		case "QUIT":
			say("221 bye")
			return
		default:
			say("250 ok")
		}
	}
}

func (f *fakeSMTP) messages() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.data...)
}

func TestSMTPSends(t *testing.T) {
	srv := newFakeSMTP(t)
	m, err := New("smtp://"+srv.addr+"?tls=none", "A2E Automation <no-reply@example.com>", nil, quiet())
	if err != nil {
		t.Fatal(err)
	}
	err = m.Send(context.Background(), Message{To: "seller@example.com", ReplyTo: "buyer@example.com", Subject: "Your code", Text: "Your code is 123456."})
	if err != nil {
		t.Fatal(err)
	}
	got := srv.messages()
	if len(got) != 1 {
		t.Fatalf("server got %d messages", len(got))
	}
	for _, want := range []string{"To: <seller@example.com>", "Reply-To: <buyer@example.com>", "Subject: Your code", "123456", "no-reply@example.com"} {
		if !strings.Contains(got[0], want) {
			t.Errorf("message lacks %q:\n%s", want, got[0])
		}
	}

	// Without tls=none, STARTTLS is required and this server has none.
	strict, err := NewSMTP("smtp://"+srv.addr, "no-reply@example.com", quiet())
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
	m, err := New("", "unused", pool, quiet())
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
