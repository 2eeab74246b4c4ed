package command

import (
	"context"
	"flag"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/apikeys"
	"github.com/a2e-automation/app/internal/auth"
	"github.com/a2e-automation/app/internal/mail"
	"github.com/a2e-automation/app/internal/payments"
	"github.com/a2e-automation/app/internal/supportrequests"
	"github.com/a2e-automation/app/internal/testing/accountstest"
	"github.com/a2e-automation/app/internal/testing/smtptest"
	"github.com/a2e-automation/app/internal/testing/testdb"
	"github.com/a2e-automation/app/internal/vero"
	"github.com/a2e-automation/app/internal/webhooks"
)

// env is the application layer wired as cmd/api's newDeps wires it, on a
// fresh PostgreSQL database and a real SMTP server, with a clock the test
// moves.
type env struct {
	t        *testing.T
	pool     *pgxpool.Pool
	repo     *accounts.Repository
	auth     *auth.Store
	keys     *apikeys.Keys
	support  *supportrequests.Store
	smtp     *smtptest.Server
	sender   *mail.Sender
	payments *payments.Service // on the simulated provider
	cmd      Commands
	clock    atomic.Pointer[time.Time]
	nudges   atomic.Int64 // MailQueued calls
	codesMu  sync.Mutex
	codes    map[string]string // the last verification code mailed to each address
	supports atomic.Int64      // support mails composed
	hooks    *webhooks.Store
	// setUpRepo is what newEnvWith did to e.repo besides; secondProcess
	// does it to its repository too.
	setUpRepo func(*accounts.Repository)
}

// TestMain runs up to 6 tests at once unless -parallel says otherwise
// (the default is GOMAXPROCS): each test spends most of its time waiting
// for PostgreSQL to clone its database, not on the CPU.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		if err := flag.Set("test.parallel", "6"); err != nil {
			panic(err)
		}
	}
	m.Run()
}

const testSecret = "command-test-secret-0123456789abcdef"

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{t: t, pool: testdb.New(t), codes: map[string]string{}}
	now := time.Now().UTC().Truncate(time.Second)
	e.clock.Store(&now)
	ctx := context.Background()
	if _, err := vero.Seed(ctx, e.pool); err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	keys, err := apikeys.New(testSecret)
	if err != nil {
		t.Fatal(err)
	}
	e.keys = keys
	e.smtp = smtptest.Start(t)
	mailer, err := mail.New(e.smtp.URL(), "noreply@example.com", 5*time.Second, e.pool, log)
	if err != nil {
		t.Fatal(err)
	}
	e.sender = mail.NewSender(e.pool, mailer, log, mail.SenderOptions{Timeout: 5 * time.Second})
	e.repo = accounts.NewRepository(eventstore.New(e.pool), e.now)
	e.auth = auth.NewStore(e.pool, testSecret)
	e.support = supportrequests.NewStore(e.pool)
	e.payments = payments.NewService(e.pool, e.repo, payments.NewSimulated(), testWebhookSecret, log,
		payments.WithBilling("Test Product", "http://localhost:8080", func() { e.nudges.Add(1) }))
	if e.hooks, err = webhooks.NewStore(e.pool, testSecret); err != nil {
		t.Fatal(err)
	}
	e.cmd = New(Deps{
		Webhooks: e.hooks, WebhookPolicy: webhooks.Policy{Development: true},
		WebhookDisabledMail: webhooks.DisabledMail("Test Product", "http://localhost:8080"),
		Accounts:            e.repo, Auth: e.auth, Keys: keys, KeyCache: auth.NewKeyCache(e.auth, 100), Now: e.now, Log: log,
		MailQueued: func() { e.nudges.Add(1) },
		VerificationMail: func(to, code string) mail.Message {
			e.codesMu.Lock()
			e.codes[to] = code
			e.codesMu.Unlock()
			return mail.Message{To: to, Subject: "Your verification code", Text: "Your code is " + code}
		},
		Support: e.support, Payments: e.payments,
		SupportMail: func(r supportrequests.Request) mail.Message {
			e.supports.Add(1)
			return mail.Message{To: "support@example.com", ReplyTo: r.Email, Subject: "Support: " + r.Subject, Text: r.Message}
		},
		SupportReplyMail: func(r supportrequests.Request, reply supportrequests.Reply) mail.Message {
			return mail.Message{To: r.Email, Subject: "Re: " + r.Subject, Text: reply.Message}
		},
	})
	return e
}

func (e *env) now() time.Time { return *e.clock.Load() }

// advance moves the clock by d.
func (e *env) advance(d time.Duration) {
	n := e.now().Add(d)
	e.clock.Store(&n)
}

// code is the last verification code mailed to email.
func (e *env) code(email string) string {
	e.codesMu.Lock()
	defer e.codesMu.Unlock()
	return e.codes[email]
}

// register signs up email through the Register command.
func (e *env) register(email string) Registered {
	e.t.Helper()
	r, err := e.cmd.Register.Handle(context.Background(), Register{Email: email, Password: "correct horse battery"})
	if err != nil {
		e.t.Fatalf("register %s: %v", email, err)
	}
	return r
}

// grant gives account id n credits that never expire (or expire at exp).
func (e *env) grant(id string, n int64, exp *time.Time) {
	e.t.Helper()
	accountstest.Do(e.t, e.repo, id, accountstest.Grant(n, domain.SourcePromo, exp))
}

// spend is the Spend part of a metered command of r, with its real key.
func (e *env) spend(r Registered, key string) Spend {
	return Spend{AccountID: r.AccountID, APIKeyHash: apikeys.Hash(r.APIKey), IdempotencyKey: key, RequestHash: "h-" + key}
}

// account is id's account replayed from its events.
func (e *env) account(id string) *domain.Account {
	e.t.Helper()
	a, err := e.repo.Replay(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return a
}

// events counts the account's events by type, and its spends (spends).
func (e *env) events(id string) map[string]int {
	e.t.Helper()
	h, err := e.repo.History(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	n := map[string]int{}
	for _, r := range h {
		n[r.Event.EventType()]++
		if _, ok := domain.SpendOf(r.Event); ok {
			n[spends]++
		}
	}
	return n
}

// spends is the key of events' count of spends: CreditsSpent events and the
// charges listings and VeRO checks carry (domain.SpendOf).
const spends = "spends"

// count runs a COUNT(*) query.
func (e *env) count(sql string, args ...any) int {
	e.t.Helper()
	var n int
	if err := e.pool.QueryRow(context.Background(), sql, args...).Scan(&n); err != nil {
		e.t.Fatalf("%s: %v", sql, err)
	}
	return n
}

// wantCode fails unless err carries the domain error code.
func wantCode(t *testing.T, err error, code domain.Code) {
	t.Helper()
	if got := domain.ErrorCode(err); got != code {
		t.Fatalf("error %v: code %q, want %q", err, got, code)
	}
}

// verified signs up email and verifies it with the mailed code.
func (e *env) verified(email string) Registered {
	e.t.Helper()
	r := e.register(email)
	if _, err := e.cmd.VerifyEmail.Handle(context.Background(), VerifyEmail{AccountID: r.AccountID, Code: e.code(email)}); err != nil {
		e.t.Fatal(err)
	}
	return r
}

// supportRequest sends a support request from r and returns it.
func (e *env) supportRequest(r Registered, subject string) supportrequests.Thread {
	e.t.Helper()
	ctx := context.Background()
	if err := e.cmd.SendSupportRequest.Handle(ctx, SendSupportRequest{AccountID: r.AccountID, Email: r.Email,
		Subject: subject, Message: "Please help with " + subject}); err != nil {
		e.t.Fatal(err)
	}
	threads, err := e.support.OfAccount(ctx, r.AccountID)
	if err != nil {
		e.t.Fatal(err)
	}
	for _, th := range threads {
		if th.Subject == subject {
			return th
		}
	}
	e.t.Fatalf("no support request %q of %s", subject, r.Email)
	return supportrequests.Thread{}
}

// subscribed makes r a verified seller with an active monthly
// subscription: a checkout through StartSubscription, paid with the
// simulated provider.
func (e *env) subscribed(email string) Registered {
	e.t.Helper()
	r := e.verified(email)
	ctx := context.Background()
	co, err := e.cmd.StartSubscription.Handle(ctx, StartSubscription{AccountID: r.AccountID})
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.cmd.ConfirmSimulatedPayment.Handle(ctx, ConfirmSimulatedPayment{AccountID: r.AccountID, ClientSecret: co.ClientSecret, Outcome: payments.OutcomeSucceeded}); err != nil {
		e.t.Fatal(err)
	}
	return r
}

// newEnvWith is newEnv whose repository setUp sets up besides (the alerts'
// or auto-recharge's mails, as cmd/api sends them), as every
// secondProcess's is.
func newEnvWith(t *testing.T, setUp func(*accounts.Repository)) *env {
	e := newEnv(t)
	e.setUpRepo = setUp
	setUp(e.repo)
	return e
}

// secondProcess is the use cases of a second API process on e's database:
// its own repository, committing through a group commit, set up as e.repo
// is (newEnvWith).
func (e *env) secondProcess() Commands {
	store := eventstore.New(e.pool)
	batcher := store.NewBatcher(eventstore.BatcherOptions{MaxBatch: 8})
	e.t.Cleanup(batcher.Close)
	other := accounts.NewRepository(store, e.now)
	other.UseGroupCommit(batcher)
	if e.setUpRepo != nil {
		e.setUpRepo(other)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	return New(Deps{Accounts: other, Auth: e.auth, Keys: e.keys, KeyCache: auth.NewKeyCache(e.auth, 10), Now: e.now, Log: log})
}

// spendTogether makes n spends of r at once, every other one through
// other's use cases; each must succeed.
func (e *env) spendTogether(r Registered, other Commands, n int) {
	e.t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		h := e.cmd.CreateListing
		if i%2 == 1 {
			h = other.CreateListing
		}
		wg.Go(func() {
			_, errs[i] = h.Handle(context.Background(), CreateListing{Spend: e.spend(r, ""), Product: testProduct})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			e.t.Fatalf("spend %d: %v", i, err)
		}
	}
}
