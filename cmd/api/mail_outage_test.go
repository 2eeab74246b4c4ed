package main

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/testing/smtptest"
)

// While the mail server is silent, then down, sign-ups and desktop calls
// answer as usual; the mail queued meanwhile goes out once the server is
// back, once each.
func TestMailOutageStallsNothingAndLosesNothing(t *testing.T) {
	smtp := smtptest.Start(t)
	// A request that waited for the silent server would wait the SMTP
	// timeout, more than twice the client's: twelve sign-ups hashing their
	// passwords at once on a busy two-core machine (make test's other lane
	// running, -race) took over 10 s, which a tighter client timeout mistook
	// for a stall. Switching the server down drops the connections the
	// sender holds open meanwhile, so the long SMTP timeout costs no time.
	e := newTestEnv(t, func(c *config.Config) { c.SMTPURL, c.SMTPTimeout = smtp.URL(), 60*time.Second })
	seller := e.seedVerified("desktop@example.com")
	client := &http.Client{Timeout: 25 * time.Second}

	smtp.Set(smtptest.Silent)
	var wg sync.WaitGroup
	emails := make([]string, 12)
	for i := range emails {
		emails[i] = fmt.Sprintf("outage-%d@example.com", i)
		wg.Go(func() {
			res, err := client.Post(e.srv.URL+"/api/register", "application/json",
				strings.NewReader(fmt.Sprintf(`{"email":%q,"password":%q}`, emails[i], testPassword)))
			if err != nil {
				t.Errorf("sign-up during a silent mail server: %v", err)
				return
			}
			res.Body.Close()
			if res.StatusCode != http.StatusCreated {
				t.Errorf("sign-up = %d", res.StatusCode)
			}
		})
	}
	for range 20 {
		req, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/v1/account", nil)
		req.Header.Set("X-API-Key", seller.APIKey)
		res, err := client.Do(req)
		if err != nil {
			t.Fatalf("GET /v1/account during a silent mail server: %v", err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET /v1/account = %d", res.StatusCode)
		}
	}
	wg.Wait()
	if r := e.do(request{method: "POST", path: "/api/support/requests", cookie: seller.Cookie,
		body: map[string]string{"subject": "Where are my credits?", "message": "I bought credits yesterday and cannot see them."}}); r.status != http.StatusCreated {
		t.Fatalf("support request = %d %s", r.status, r.body)
	}

	smtp.Set(smtptest.Down)
	time.Sleep(200 * time.Millisecond)
	if got := smtp.Messages(); len(got) != 0 {
		t.Fatalf("%d mails arrived during the outage", len(got))
	}
	smtp.Set(smtptest.Up)
	// The retries are due within the capped backoff (a minute); skip the
	// wait as an operator's clock would pass it.
	e.exec(`UPDATE mail_outbox SET next_attempt_at = now() WHERE status = 'pending'`)
	e.deps.Mail.Nudge()
	deadline := time.Now().Add(15 * time.Second)
	for len(smtp.Messages()) < len(emails)+1 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	for _, email := range emails {
		if got := smtp.To(email); len(got) != 1 || !strings.Contains(got[0], "verification code") {
			t.Errorf("%s got %d verification mails after the outage", email, len(got))
		}
	}
	if got := smtp.To(e.deps.Config.SupportEmail); len(got) != 1 || !strings.Contains(got[0], "Where are my credits?") {
		t.Errorf("support got %d mails after the outage", len(got))
	}
	var attempted int
	if err := e.deps.Pool.QueryRow(context.Background(), `SELECT count(*) FROM mail_outbox WHERE attempts > 1 AND status = 'sent'`).Scan(&attempted); err != nil || attempted == 0 {
		t.Fatalf("no mail was retried (%d, %v): the outage was not seen", attempted, err)
	}
}
