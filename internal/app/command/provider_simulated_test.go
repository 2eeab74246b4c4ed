package command_test

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/apikeys"
	"github.com/a2e-automation/app/internal/app/command"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/payments"
)

func TestSimulatedProvider(t *testing.T) {
	e := newEnv(t, payments.NewSimulated())
	ctx := context.Background()
	md := eventstore.Metadata{Actor: "test"}
	id, other := e.account("sim@example.com"), e.account("other@example.com")

	if _, err := e.commands().PurchaseCredits.Handle(ctx, command.PurchaseCredits{AccountID: id, Credits: 0}); domain.ErrorMessage(err) != "Please select a valid credit amount." {
		t.Fatalf("0 credits: err = %v", err)
	}
	buy, err := e.commands().PurchaseCredits.Handle(ctx, command.PurchaseCredits{AccountID: id, Credits: 100})
	if err != nil || buy.AmountCents != 999 || buy.ClientSecret == "" {
		t.Fatalf("purchase = %+v, %v", buy, err)
	}
	if _, err := e.commands().ConfirmSimulatedPayment.Handle(ctx, command.ConfirmSimulatedPayment{AccountID: other, ClientSecret: buy.ClientSecret, Outcome: payments.OutcomeSucceeded, Metadata: md}); !errors.Is(err, payments.ErrUnknownPayment) {
		t.Fatalf("another account's secret: err = %v", err)
	}
	if _, err := e.commands().ConfirmSimulatedPayment.Handle(ctx, command.ConfirmSimulatedPayment{AccountID: id, ClientSecret: buy.ClientSecret, Outcome: "maybe", Metadata: md}); domain.ErrorCode(err) != domain.CodeInvalid {
		t.Fatalf("unknown outcome: err = %v", err)
	}
	declined, err := e.commands().ConfirmSimulatedPayment.Handle(ctx, command.ConfirmSimulatedPayment{AccountID: id, ClientSecret: buy.ClientSecret, Outcome: payments.OutcomeFailed, Metadata: md})
	if err != nil || declined.Status != "failed" || declined.Message != "Your card was declined." {
		t.Fatalf("declined = %+v, %v", declined, err)
	}
	e.check(id, 0, domain.StatusInactive)
	if _, err := e.commands().ConfirmSimulatedPayment.Handle(ctx, command.ConfirmSimulatedPayment{AccountID: id, ClientSecret: buy.ClientSecret, Outcome: payments.OutcomeSucceeded, Metadata: md}); err != nil {
		t.Fatal(err)
	}
	e.check(id, 100, domain.StatusInactive)
	if _, err := e.commands().ConfirmSimulatedPayment.Handle(ctx, command.ConfirmSimulatedPayment{AccountID: id, ClientSecret: buy.ClientSecret, Outcome: payments.OutcomeSucceeded, Metadata: md}); !errors.Is(err, payments.ErrAlreadyConfirmed) {
		t.Fatalf("second confirmation: err = %v", err)
	}

	if _, err := e.commands().AdvanceSimulatedCycle.Handle(ctx, command.AdvanceSimulatedCycle{AccountID: id, Outcome: payments.OutcomeSucceeded, Metadata: md}); !errors.Is(err, payments.ErrNothingToRenew) {
		t.Fatalf("advance without a subscription: err = %v", err)
	}
	sub, err := e.commands().StartSubscription.Handle(ctx, command.StartSubscription{AccountID: id})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.commands().ConfirmSimulatedPayment.Handle(ctx, command.ConfirmSimulatedPayment{AccountID: id, ClientSecret: sub.ClientSecret, Outcome: payments.OutcomeSucceeded, Metadata: md}); err != nil {
		t.Fatal(err)
	}
	e.check(id, 600, domain.StatusActive)
	firstEnd := *e.load(id).PeriodEnd()
	if !firstEnd.Equal(month(1)) {
		t.Fatalf("first period ends %v, want %v", firstEnd, month(1))
	}

	// A declined renewal at the cycle's end: the cycle's credits expire and
	// the subscription is past due; advancing again retries the invoice.
	if _, err := e.commands().AdvanceSimulatedCycle.Handle(ctx, command.AdvanceSimulatedCycle{AccountID: id, Outcome: payments.OutcomeFailed, Metadata: md}); err != nil {
		t.Fatal(err)
	}
	e.check(id, 100, domain.StatusPastDue)
	if _, err := e.commands().AdvanceSimulatedCycle.Handle(ctx, command.AdvanceSimulatedCycle{AccountID: id, Outcome: payments.OutcomeSucceeded, Metadata: md}); err != nil {
		t.Fatal(err)
	}
	e.check(id, 600, domain.StatusActive)
	if end := e.load(id).PeriodEnd(); !end.Equal(month(2)) {
		t.Fatalf("renewed period ends %v, want %v", end, month(2))
	}
	pays := e.history(id, "PaymentRecorded")
	failed, retried := pays[len(pays)-2].(domain.PaymentRecorded), pays[len(pays)-1].(domain.PaymentRecorded)
	if len(pays) != 5 || failed.Status != "failed" || retried.Status != "paid" || failed.PaymentID != retried.PaymentID {
		t.Fatalf("payments = %+v, want the declined renewal's invoice paid on retry", pays)
	}

	if _, err := e.commands().CancelSubscription.Handle(ctx, command.SellerSubscription{AccountID: id, Metadata: md}); err != nil {
		t.Fatal(err)
	}
	e.check(id, 600, domain.StatusCancelling)
	if _, err := e.commands().CancelSubscription.Handle(ctx, command.SellerSubscription{AccountID: id, Metadata: md}); domain.ErrorCode(err) != domain.CodeConflict {
		t.Fatalf("second cancel: err = %v", err)
	}
	// Advancing a cancelling subscription's cycle ends it: the period end
	// expires the cycle's credits and makes it cancelled.
	if _, err := e.commands().AdvanceSimulatedCycle.Handle(ctx, command.AdvanceSimulatedCycle{AccountID: id, Outcome: payments.OutcomeSucceeded, Metadata: md}); err != nil {
		t.Fatalf("advance after cancel: err = %v", err)
	}
	e.clock.Set(month(2))
	e.check(id, 100, domain.StatusCancelled)
	if _, err := e.commands().AdvanceSimulatedCycle.Handle(ctx, command.AdvanceSimulatedCycle{AccountID: id, Outcome: payments.OutcomeSucceeded, Metadata: md}); !errors.Is(err, payments.ErrNothingToRenew) {
		t.Fatalf("advance after the end: err = %v", err)
	}

	stripeSvc := payments.NewService(e.pool, e.repo, payments.NewStripe(payments.StripeConfig{SecretKey: "sk_test_unused"}), webhookSecret, slog.New(slog.DiscardHandler))
	if _, err := command.New(command.Deps{Accounts: e.repo, Payments: stripeSvc}).ConfirmSimulatedPayment.Handle(ctx, command.ConfirmSimulatedPayment{AccountID: id, ClientSecret: buy.ClientSecret, Outcome: payments.OutcomeSucceeded, Metadata: md}); !errors.Is(err, payments.ErrNotSimulated) {
		t.Fatalf("confirm with Stripe active: err = %v", err)
	}
}

// TestOneCheckoutAtATimePerAccount starts checkouts together (issue 25):
// one subscription and one PaymentIntent per amount are made, every
// attempt answers the same client secret, and only one can be paid. An
// unverified account starts none.
func TestOneCheckoutAtATimePerAccount(t *testing.T) {
	e := newEnv(t, payments.NewSimulated())
	ctx, md := context.Background(), eventstore.Metadata{Actor: "test"}
	id := e.account("together@example.com")
	const attempts = 8
	secrets := make([]string, 2*attempts)
	var wg sync.WaitGroup
	for i := range attempts {
		wg.Go(func() {
			co, err := e.commands().StartSubscription.Handle(ctx, command.StartSubscription{AccountID: id})
			if err != nil {
				t.Errorf("subscription %d: %v", i, err)
			}
			secrets[i] = co.ClientSecret
		})
		wg.Go(func() {
			p, err := e.commands().PurchaseCredits.Handle(ctx, command.PurchaseCredits{AccountID: id, Credits: 100})
			if err != nil {
				t.Errorf("purchase %d: %v", i, err)
			}
			secrets[attempts+i] = p.ClientSecret
		})
	}
	wg.Wait()
	for i := range attempts {
		if secrets[i] != secrets[0] || secrets[attempts+i] != secrets[attempts] || secrets[0] == secrets[attempts] {
			t.Fatalf("client secrets = %q; want one per kind", secrets)
		}
	}
	var subscriptions, intents int
	if err := e.pool.QueryRow(ctx, `SELECT count(*) FILTER (WHERE kind = 'subscription'), count(*) FILTER (WHERE kind = 'credits')
		FROM payment_intents WHERE account_id = $1`, id).Scan(&subscriptions, &intents); err != nil || subscriptions != 1 || intents != 1 {
		t.Fatalf("%d subscriptions and %d PaymentIntents made (%v); want 1 and 1", subscriptions, intents, err)
	}
	if _, err := e.commands().ConfirmSimulatedPayment.Handle(ctx, command.ConfirmSimulatedPayment{AccountID: id, ClientSecret: secrets[0], Outcome: payments.OutcomeSucceeded, Metadata: md}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.commands().ConfirmSimulatedPayment.Handle(ctx, command.ConfirmSimulatedPayment{AccountID: id, ClientSecret: secrets[1], Outcome: payments.OutcomeSucceeded, Metadata: md}); !errors.Is(err, payments.ErrAlreadyConfirmed) {
		t.Fatalf("paying the double click's answer again: %v", err)
	}
	e.check(id, 500, domain.StatusActive)

	// Another amount is another PaymentIntent; a paid one is not reused.
	other, err := e.commands().PurchaseCredits.Handle(ctx, command.PurchaseCredits{AccountID: id, Credits: 500})
	if err != nil || other.ClientSecret == secrets[attempts] {
		t.Fatalf("500 credits = %+v, %v", other, err)
	}
	if _, err := e.commands().ConfirmSimulatedPayment.Handle(ctx, command.ConfirmSimulatedPayment{AccountID: id, ClientSecret: secrets[attempts], Outcome: payments.OutcomeSucceeded, Metadata: md}); err != nil {
		t.Fatal(err)
	}
	next, err := e.commands().PurchaseCredits.Handle(ctx, command.PurchaseCredits{AccountID: id, Credits: 100})
	if err != nil || next.ClientSecret == secrets[attempts] {
		t.Fatalf("100 credits after paying = %+v, %v", next, err)
	}

	keys, err := apikeys.New(config.DevelopmentSecret)
	if err != nil {
		t.Fatal(err)
	}
	unverified, err := e.repo.Register(ctx, keys, "unverified@example.com", "not-a-real-hash", md)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.commands().PurchaseCredits.Handle(ctx, command.PurchaseCredits{AccountID: unverified.AccountID, Credits: 100}); !errors.Is(err, payments.ErrUnverified) {
		t.Fatalf("unverified purchase: %v", err)
	}
	if _, err := e.commands().StartSubscription.Handle(ctx, command.StartSubscription{AccountID: unverified.AccountID}); !errors.Is(err, payments.ErrUnverified) {
		t.Fatalf("unverified subscription: %v", err)
	}
}
