package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/internal/mail"
	"github.com/a2e-automation/app/internal/testing/smtptest"
	"github.com/a2e-automation/app/internal/testing/syncbuf"
	"github.com/a2e-automation/app/internal/testing/testbin"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// bin/api stopped by SIGTERM while the mail server holds its answer to a
// mail it has already kept: the stop waits for that delivery and records
// it, so no mail is left leased to go out again; started again, bin/api
// delivers the rest. Every mail reaches the server exactly once.
func TestSIGTERMDuringDeliveriesSendsEachMailOnce(t *testing.T) {
	smtp := smtptest.Start(t)
	smtp.Delay(2 * time.Second)
	url := testdb.NewURL(t)
	pool := testdb.Pool(t, url)
	const mails = 6
	for i := range mails {
		m := mail.Message{To: fmt.Sprintf("stop-%d@example.com", i), Subject: "stop test", Text: "hello"}
		if err := mail.Enqueue(context.Background(), pool, mail.KindSupport, m, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(t.TempDir(), "api")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/api: %v\n%s", err, out)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "TMPDIR=" + os.TempDir(),
		"APP_ENV=development", "DATABASE_URL=" + url, "SMTP_URL=" + smtp.URL(), "METRICS_ADDR=off"}

	api := startAPI(t, bin, env)
	waitFor(t, "two mails at the server", func() bool { return len(smtp.Messages()) >= 2 })
	// The second mail is kept and its 250 held for two seconds: stop now.
	if err := api.Stop(syscall.SIGTERM, 30*time.Second); err != nil {
		t.Fatalf("bin/api after SIGTERM: %v", err)
	}
	received := map[string]int{}
	for _, m := range smtp.Messages() {
		received[recipient(m)]++
	}
	for to, status := range outboxStatus(t, pool) {
		if received[to] > 0 && status != "sent" {
			t.Errorf("%s: accepted by the server, recorded as %q: it would go out again when its lease ends", to, status)
		}
		if status == "sending" {
			t.Errorf("%s: still leased after the stop", to)
		}
	}
	if t.Failed() {
		return
	}

	smtp.Delay(0)
	api = startAPI(t, bin, env)
	waitFor(t, "every mail sent", func() bool {
		for _, status := range outboxStatus(t, pool) {
			if status != "sent" {
				return false
			}
		}
		return true
	})
	if err := api.Stop(syscall.SIGTERM, 30*time.Second); err != nil {
		t.Fatalf("bin/api after SIGTERM: %v", err)
	}
	received = map[string]int{}
	for _, m := range smtp.Messages() {
		received[recipient(m)]++
	}
	for i := range mails {
		if to := fmt.Sprintf("stop-%d@example.com", i); received[to] != 1 {
			t.Errorf("%s reached the server %d times, want once", to, received[to])
		}
	}
}

// startAPI starts bin/api (its log shown if the test fails).
func startAPI(t *testing.T, bin string, env []string) *testbin.Program {
	t.Helper()
	log := &syncbuf.Buffer{}
	p, err := testbin.StartProgram(bin, []string{"-addr", "127.0.0.1:0"}, env, log, func(r io.Reader) (string, error) {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if addr, ok := strings.CutPrefix(sc.Text(), "listening on "); ok {
				return addr, nil
			}
		}
		return "", fmt.Errorf("bin/api exited before listening")
	}, time.Minute)
	if err != nil {
		t.Fatalf("bin/api: %v\n%s", err, log.String())
	}
	t.Cleanup(p.Kill)
	t.Cleanup(func() {
		if t.Failed() {
			out := log.String()
			t.Logf("bin/api's log (tail):\n%s", out[max(0, len(out)-6000):])
		}
	})
	return p
}

// outboxStatus is each queued mail's status by recipient.
func outboxStatus(t *testing.T, pool *pgxpool.Pool) map[string]string {
	t.Helper()
	rows, err := pool.Query(context.Background(), `SELECT recipient, status FROM mail_outbox`)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for rows.Next() {
		var to, status string
		if err := rows.Scan(&to, &status); err != nil {
			t.Fatal(err)
		}
		out[to] = status
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// recipient is the address of a message's To header.
func recipient(data string) string {
	for line := range strings.SplitSeq(data, "\r\n") {
		if to, ok := strings.CutPrefix(line, "To: <"); ok {
			return strings.TrimSuffix(to, ">")
		}
	}
	return ""
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within a minute", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
