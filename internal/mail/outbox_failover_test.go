package mail

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/internal/testing/faultproxy"
	"github.com/a2e-automation/app/internal/testing/smtptest"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// cutAfterSend is a Mailer that, once the mail is accepted, takes the
// database away for a while, as a failover would between the send and its
// settlement.
type cutAfterSend struct {
	Mailer
	proxy *faultproxy.Proxy
	for_  time.Duration
}

func (m cutAfterSend) Send(ctx context.Context, msg Message) error {
	err := m.Mailer.Send(ctx, msg)
	m.proxy.Set(faultproxy.Down)
	time.AfterFunc(m.for_, func() { m.proxy.Set(faultproxy.Up) })
	return err
}

// A failover between a mail's send and its settlement (issue 32): the
// sender waits for the database and records the mail sent, so no sender
// sends it again when the lease ends.
func TestOutboxSettlesThroughAFailover(t *testing.T) {
	dbURL := testdb.NewURL(t)
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := faultproxy.Start(t, u.Host)
	u.Host = proxy.Addr()
	viaProxy, err := pgxpool.New(context.Background(), u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(viaProxy.Close)
	direct, err := pgxpool.New(context.Background(), dbURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(direct.Close)
	r := &outboxRig{pool: direct, smtp: smtptest.Start(t), now: time.Now().UTC()}
	opts := SenderOptions{Timeout: time.Second}
	smtp, err := NewSMTP(r.smtp.URL(), "A2E Automation <no-reply@example.com>", opts.withDefaults().Timeout, quiet())
	if err != nil {
		t.Fatal(err)
	}
	s := NewSender(viaProxy, cutAfterSend{Mailer: smtp, proxy: proxy, for_: 2 * time.Second}, quiet(), opts)
	s.Now = r.clock
	r.enqueue(t, "seller@example.com")

	if n, err := s.DeliverDue(context.Background()); n != 1 || err != nil {
		t.Fatalf("delivery through a 2 s outage after the send: %d, %v", n, err)
	}
	if got := r.status(t); got["sent"] != 1 {
		t.Fatalf("after the outage the mail is %v, want sent", got)
	}
	// Past the lease, nobody sends it again.
	r.advance(opts.withDefaults().lease() + time.Minute)
	other := NewSender(direct, smtp, quiet(), opts)
	other.Now = r.clock
	if n, err := other.DeliverDue(context.Background()); n != 0 || err != nil {
		t.Fatalf("after the lease another sender took %d mails (%v)", n, err)
	}
	if got := r.smtp.To("seller@example.com"); len(got) != 1 {
		t.Fatalf("delivered %d times", len(got))
	}
}
