package projections_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/testing/testdb"
	"github.com/a2e-automation/app/projections"
)

// codecEvents returns a value of every event type the codec's registry
// knows, decoded from empty data.
func codecEvents(t *testing.T) []domain.Event {
	t.Helper()
	var evs []domain.Event
	for _, typ := range domain.EventTypes() {
		ev, err := domain.DecodeEvent(typ, 1, []byte(`{}`))
		if err != nil {
			t.Fatalf("decode an empty %s: %v", typ, err)
		}
		evs = append(evs, ev)
	}
	if len(evs) == 0 {
		t.Fatal("the codec knows no event type")
	}
	return evs
}

type foreignEvent struct{}

func (foreignEvent) EventType() string { return "Foreign" }

// Every fold of the read tables (each projection's Apply, which the live
// batches, CatchUp and the rebuild share) has a case for every event type the
// codec knows, those that change nothing included: a type added to the codec
// and to no fold fails here, since a fold answers ErrUnhandledEvent to a
// type it has no case for. Each event is applied in a batch after its
// account's registration, so the profile it folds into exists, against the
// real tables.
func TestEveryFoldHasACaseForEveryEventType(t *testing.T) {
	pool := testdb.New(t)
	ctx := context.Background()
	id := uuid.NewString()
	at := time.Date(2026, time.March, 1, 12, 0, 0, 0, time.UTC)
	rec := func(ev domain.Event) eventstore.Record {
		return eventstore.Record{StreamID: domain.StreamID(id), Type: ev.EventType(), SchemaVersion: 1, RecordedAt: at}
	}
	registered := domain.AccountRegistered{AccountID: id, Email: "walk@example.com"}
	apply := func(p projections.Projection, ev domain.Event) error {
		tx, err := pool.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = tx.Rollback(ctx) }()
		return p.Apply(ctx, tx, projections.Tables{}, []eventstore.Record{rec(registered), rec(ev)}, []domain.Event{registered, ev})
	}
	for _, ev := range codecEvents(t) {
		t.Run(ev.EventType(), func(t *testing.T) {
			for _, p := range projections.All() {
				if err := apply(p, ev); err != nil {
					t.Errorf("%s: %v", p.Name(), err)
				}
			}
		})
	}
	// The walk sees a missing case: every fold refuses a type it does not name.
	for _, p := range projections.All() {
		if err := apply(p, foreignEvent{}); !errors.Is(err, projections.ErrUnhandledEvent) {
			t.Errorf("%s: Apply of a type it has no case for = %v, want ErrUnhandledEvent", p.Name(), err)
		}
	}
}

// A log that holds every event type the codec knows, made by the domain's
// commands (so every event is one the product writes), leaves the same read
// tables applied by live batches (small ones, so batches end mid-account,
// all projections together) as rebuilt from zero (one projection at a time,
// in batches of another size).
func TestLiveBatchesEqualRebuildForEveryEventType(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	everyEventType(t, f)

	var logged []string
	rows, err := f.pool.Query(ctx, `SELECT DISTINCT event_type FROM events ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	if logged, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		t.Fatal(err)
	}
	for _, typ := range domain.EventTypes() {
		if !slices.Contains(logged, typ) {
			t.Errorf("the log holds no %s: give everyEventType a command that records it", typ)
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	for {
		n, err := f.projector.ApplyBatch(ctx, 3)
		if err != nil {
			t.Fatal(err)
		}
		if n < 3 {
			break
		}
	}
	live := dump(t, f.pool)
	for table, rows := range live {
		if len(rows) == 0 {
			t.Fatalf("live batches left %s empty", table)
		}
	}
	for _, name := range f.projector.Names() {
		if err := f.projector.Rebuild(ctx, name, 4); err != nil {
			t.Fatal(err)
		}
	}
	rebuilt := dump(t, f.pool)
	for table := range live {
		if !reflect.DeepEqual(live[table], rebuilt[table]) {
			t.Errorf("%s: live batches and a rebuild differ:\nlive    %v\nrebuilt %v", table, live[table], rebuilt[table])
		}
	}
}

// everyEventType records, through the domain's commands, a history of three
// accounts that holds every event type the codec knows today.
func everyEventType(t *testing.T, f *fixture) {
	a, b, c := f.register(t), f.register(t), f.register(t) // AccountRegistered, APIKeyIssued
	start := time.Now().UTC()
	sub := "sub_" + a[:8]
	payA, payB, payC := "pi_"+a[:8], "pi_"+b[:8], "pi_"+c[:8]
	paid := func(id string, credits, cents int64) func(*domain.Account, time.Time) error {
		return func(acc *domain.Account, now time.Time) error {
			return acc.RecordPayment(domain.PaymentRecorded{PaymentID: id, Kind: domain.PaymentKindCredits, Description: fmt.Sprintf("%d credits", credits),
				AmountCents: cents, Status: domain.PaymentPaid, Credits: credits, GrantID: "grant-" + id, InvoiceURL: "https://pay.example/" + id}, now)
		}
	}
	bought := func(id string, credits int64) func(*domain.Account, time.Time) error {
		return func(acc *domain.Account, now time.Time) error {
			return acc.GrantCredits(domain.CreditsGranted{GrantID: "grant-" + id, Amount: credits, Source: domain.SourcePurchase, Reference: id}, now)
		}
	}
	listing := func(n int) func(*domain.Account, time.Time) error {
		return func(acc *domain.Account, now time.Time) error {
			return acc.RequestListing(fmt.Sprintf("l-%d", n), "B000TEST01", "", now)
		}
	}
	// b's listings are made with its key, as /v1 makes them: the spend
	// names it (usage_daily_keys).
	keyed := func(n int) func(*domain.Account, time.Time) error {
		return func(acc *domain.Account, now time.Time) error {
			if err := acc.RequireAPIKey("h-"+acc.ID(), now); err != nil {
				return err
			}
			return listing(n)(acc, now)
		}
	}
	steps := []struct {
		id  string
		cmd func(*domain.Account, time.Time) error
	}{
		{a, func(acc *domain.Account, now time.Time) error { return acc.VerifyEmail(now) }},
		{a, func(acc *domain.Account, now time.Time) error { return acc.ChangePassword("reset", now) }},
		{b, func(acc *domain.Account, now time.Time) error { return acc.VerifyEmail(now) }},
		{b, func(acc *domain.Account, now time.Time) error { // AlertSettingsChanged; below 8 at once: LowBalanceAlerted
			return acc.SetAlerts(domain.AlertSettings{LowBalanceCredits: ptr(int64(8))}, now)
		}}, // b's purchase of 10 below: BalanceRecovered; its listings: LowBalanceAlerted again
		{a, func(acc *domain.Account, now time.Time) error {
			return acc.RotateAPIKey(domain.APIKeyMaterial{KeyID: "k2-" + a, Prefix: "a2e_new", Hash: "h2-" + a, Encrypted: "enc2"}, now)
		}},
		{a, func(acc *domain.Account, now time.Time) error { // APIKeyCreated
			return acc.CreateAPIKey(domain.APIKeyMaterial{KeyID: "k3-" + a, Prefix: "a2e_k3", Hash: "h3-" + a, Encrypted: "enc3"}, "Laptop", domain.KeyModeLive, nil, now)
		}},
		{a, func(acc *domain.Account, now time.Time) error { // APIKeyRotated of a named key, with a grace
			return acc.RotateKey("k3-"+a, domain.APIKeyMaterial{KeyID: "k4-" + a, Prefix: "a2e_k4", Hash: "h4-" + a, Encrypted: "enc4"}, time.Nanosecond, now)
		}},
		{a, func(acc *domain.Account, now time.Time) error { return acc.ExpireAPIKeys(now.Add(time.Second)) }}, // APIKeyExpired
		{a, func(acc *domain.Account, now time.Time) error { return acc.RevokeAPIKey("k4-"+a, now) }},          // APIKeyRevoked
		{a, func(acc *domain.Account, now time.Time) error { return acc.RecordStaffNote("called back", now) }},
		{b, func(acc *domain.Account, now time.Time) error { // SpendLimitsSet: b's 3 listings stay under them
			daily, monthly := int64(50), int64(400)
			return acc.SetSpendLimits(&daily, &monthly, now)
		}},
		{b, func(acc *domain.Account, now time.Time) error { // WebhookEndpointAdded
			return acc.AddWebhookEndpoint("we-"+b, "https://hooks.example/a2e", []string{domain.WebhookCreditsGranted}, now)
		}},
		{b, func(acc *domain.Account, now time.Time) error { return acc.RollWebhookSecret("we-"+b, now) }},
		{b, func(acc *domain.Account, now time.Time) error {
			return acc.DisableWebhookEndpoint("we-"+b, "failing for 3 days", now)
		}},
		{b, func(acc *domain.Account, now time.Time) error { return acc.RemoveWebhookEndpoint("we-"+b, now) }},
		{a, func(acc *domain.Account, now time.Time) error { // SubscriptionActivated, CreditsGranted
			return acc.StartOrRenewCycle(sub, start, start.Add(720*time.Hour), domain.MonthlyCredits, now)
		}},
		{a, func(acc *domain.Account, now time.Time) error { // SubscriptionRenewed, CreditsGranted
			return acc.StartOrRenewCycle(sub, start.Add(720*time.Hour), start.Add(1440*time.Hour), domain.MonthlyCredits, now)
		}},
		{a, func(acc *domain.Account, now time.Time) error { // the first cycle's credits expire within 30 days: ExpiryReminderSent
			return acc.SetAlerts(domain.AlertSettings{ExpiringReminderDays: ptr(30)}, now)
		}},
		{c, func(acc *domain.Account, now time.Time) error {
			return acc.RecordPayment(domain.PaymentRecorded{PaymentID: payC, Kind: domain.PaymentKindCredits, Description: "100 credits",
				AmountCents: 999, Status: domain.PaymentPending, Credits: 100}, now)
		}},
		{a, paid(payA, 100, 999)}, // PaymentRecorded
		{a, bought(payA, 100)},
		{b, paid(payB, 10, 1000)},
		{b, bought(payB, 10)},
		{c, paid(payC, 100, 999)},
		{a, listing(1)}, // CreditsSpent, ListingRequested
		{b, keyed(1)},
		{b, keyed(2)},
		{a, func(acc *domain.Account, now time.Time) error { return acc.PerformVeroCheck("v-1", "Nike", true, now) }},
		{b, listing(3)},
		{a, func(acc *domain.Account, now time.Time) error { return acc.RecordDownload("windows", "2.4.0", now) }},
		{a, func(acc *domain.Account, now time.Time) error { return acc.Debit(5, "duplicate", now) }}, // CreditsDebited
		{a, func(acc *domain.Account, now time.Time) error {
			expires := now.Add(time.Hour)
			return acc.GrantCredits(domain.CreditsGranted{Amount: 7, Source: domain.SourcePromo, ExpiresAt: &expires}, now)
		}},
		{a, func(acc *domain.Account, now time.Time) error { return acc.ExpireDue(now.Add(2 * time.Hour)) }}, // CreditsExpired
		{a, func(acc *domain.Account, now time.Time) error { return acc.RefundPayment(payA, 499, now) }},     // PaymentRefunded, CreditsRevoked
		{a, func(acc *domain.Account, now time.Time) error { return acc.OpenDispute("dp_"+a[:8], payA, 999, now) }},
		{b, func(acc *domain.Account, now time.Time) error { return acc.OpenDispute("dp_"+b[:8], payB, 1000, now) }}, // DisputeOpened
		{a, func(acc *domain.Account, now time.Time) error { return acc.CloseDispute("dp_"+a[:8], payA, true, now) }},
		{b, func(acc *domain.Account, now time.Time) error { // DisputeClosed, CreditsRevoked with debt: 3 of its 10 were spent
			return acc.CloseDispute("dp_"+b[:8], payB, false, now)
		}},
		{b, func(acc *domain.Account, now time.Time) error { // CreditsGranted, DebtRepaid
			return acc.GrantCredits(domain.CreditsGranted{Amount: 5, Source: domain.SourcePromo}, now)
		}},
		{a, func(acc *domain.Account, now time.Time) error { return acc.CancelSubscription(now) }}, // SubscriptionCancelled
		{a, func(acc *domain.Account, now time.Time) error { return acc.ResumeSubscription(now) }}, // SubscriptionResumed
		{a, func(acc *domain.Account, now time.Time) error { return acc.MarkPastDue(sub, now) }},   // SubscriptionPastDue
		{a, func(acc *domain.Account, now time.Time) error { return acc.CancelSubscription(now) }}, // past due: SubscriptionEnded

		// Auto-recharge (issue 33 item 2) on c.
		{c, func(acc *domain.Account, now time.Time) error { return acc.VerifyEmail(now) }},
		{c, bought("recharge-c", 20)},
		{c, func(acc *domain.Account, now time.Time) error { // CreditsSpent: a metered API request, with c's key
			if err := acc.RequireAPIKey("h-"+acc.ID(), now); err != nil {
				return err
			}
			return acc.Spend(domain.OperationAPIRequest, "req-1", now)
		}},
		{c, func(acc *domain.Account, now time.Time) error { // PaymentMethodSaved
			acc.SavePaymentMethod(domain.Card{Brand: "visa", Last4: "4242"}, now)
			return nil
		}},
		{c, func(acc *domain.Account, now time.Time) error { // AutoRechargeSet
			return acc.SetAutoRecharge(domain.AutoRecharge{Enabled: true, ThresholdCredits: 200, PackCredits: 100,
				PackAmountCents: 999, MonthlyLimitCents: 5000}, now)
		}},
		{c, func(acc *domain.Account, now time.Time) error { // a spend below 200: RechargeRequested
			if err := acc.RequestListing("l-c1", "B000TEST01", "", now); err != nil {
				return err
			}
			acc.ReviewAutoRecharge(now)
			return nil
		}},
		{c, func(acc *domain.Account, now time.Time) error { // RechargeNeedsAction
			acc.RechargeNeedsAuthentication("recharge-1", "pi_c_1", now)
			return nil
		}},
		{c, func(acc *domain.Account, now time.Time) error { // a new card; the next spend: RechargeRequested; declined: RechargeFailed
			acc.SavePaymentMethod(domain.Card{Brand: "mastercard", Last4: "4444"}, now)
			if err := acc.RequestListing("l-c2", "B000TEST01", "", now); err != nil {
				return err
			}
			acc.ReviewAutoRecharge(now)
			acc.RechargeDeclined("recharge-2", "pi_c_2", "Your card was declined.", now)
			return nil
		}},
		{c, func(acc *domain.Account, now time.Time) error { // PaymentMethodRemoved, AutoRechargeDisabled
			acc.RemovePaymentMethod(now)
			return nil
		}},
		{c, func(acc *domain.Account, now time.Time) error { // a daily limit of 1 under today's 3 spends
			one := int64(1)
			return acc.SetSpendLimits(&one, nil, now)
		}},
		{c, func(acc *domain.Account, now time.Time) error { // the next spend is refused: SpendLimitReached
			if err := acc.RequestListing("l-c3", "B000TEST01", "", now); domain.ErrorCode(err) != domain.CodeSpendLimitReached {
				return fmt.Errorf("a spend over the daily limit: %v", err)
			}
			if !acc.NoteSpendLimitReached(now) {
				return errors.New("the limit's reach was not noted")
			}
			return nil
		}},
	}
	for _, s := range steps {
		f.do(t, s.id, s.cmd)
	}
	// What the commands did, as the domain sees it: the debt was made and repaid.
	f.do(t, b, func(acc *domain.Account, now time.Time) error {
		if acc.CreditDebt() != 0 || acc.Balance(now) != 2 {
			t.Errorf("account b: debt %d, balance %d; want 0 and 2 (3 owed repaid from 5)", acc.CreditDebt(), acc.Balance(now))
		}
		return nil
	})
}

func ptr[T any](v T) *T { return &v }
