// Package command is the application layer's use cases that change a seller
// account, one file per use case in the shape of wild-workouts' app/command:
// a command (what the caller asks, already decoded and validated) and its
// handler, which owns the transaction. The rules stay in package domain, the
// transaction and its retries in accounts.Repository and the event store;
// an HTTP handler decodes, calls one Handle and encodes.
package command

import (
	"log/slog"
	"time"

	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/apikeys"
	"github.com/a2e-automation/app/internal/auth"
	"github.com/a2e-automation/app/internal/mail"
	"github.com/a2e-automation/app/internal/sandbox"
	"github.com/a2e-automation/app/internal/supportrequests"
	"github.com/a2e-automation/app/internal/webhooks"
)

// Deps are what the use cases need, built once by the process.
type Deps struct {
	Accounts *accounts.Repository
	Auth     *auth.Store
	Keys     *apikeys.Keys
	Sandbox  *sandbox.Store // test mode's ledger (issue 34)
	// KeyCache admits the desktop client's metered calls; the commands
	// forget an entry found stale. Nil: nothing to forget.
	KeyCache *auth.KeyCache
	// Now is the clock of the operational tables (codes, reset tokens,
	// sessions); the events take the repository's. Nil means time.Now.
	Now func() time.Time
	// VerificationMail composes the mail that carries a verification code.
	VerificationMail func(to, code string) mail.Message
	// Support stores support requests; SupportMail composes the mail of
	// one to the support mailbox.
	Support     *supportrequests.Store
	SupportMail func(supportrequests.Request) mail.Message
	// SupportReplyMail composes the mail of a staff reply to the seller.
	SupportReplyMail func(supportrequests.Request, supportrequests.Reply) mail.Message
	// Payments asks the payment provider for the seller's checkouts,
	// cancellations and resumes, staff refunds and cancellations.
	Payments Provider
	// MailQueued is called after a mail was queued in the outbox (the
	// sender's Nudge), so it goes out at once.
	MailQueued func()
	Log        *slog.Logger
	// Webhooks keeps the sellers' webhook endpoints and deliveries,
	// WebhookPolicy judges their URLs, WebhookDisabledMail composes the mail
	// of an endpoint disabled, and WebhooksQueued nudges the worker.
	Webhooks            *webhooks.Store
	WebhookPolicy       webhooks.Policy
	WebhookDisabledMail func(to, url, reason string) mail.Message
	WebhooksQueued      func()
}

// Commands are the use cases, each ready to Handle.
type Commands struct {
	VerifyEmail          VerifyEmailHandler
	SendVerificationCode SendVerificationCodeHandler
	CompleteReset        CompleteResetHandler
	Register             RegisterHandler
	CreateListing        CreateListingHandler
	VeroCheck            VeroCheckHandler
	SendSupportRequest   SendSupportRequestHandler
	RotateAPIKey         RotateAPIKeyHandler
	CreateAPIKey         CreateAPIKeyHandler  // named keys (issue 34)
	RevokeAPIKey         RevokeAPIKeyHandler  // named keys (issue 34)
	ExpireAPIKeys        ExpireAPIKeysHandler // and its sweeper, run by the API process
	// Test mode (issue 34): a test key's listings and the sandbox's reset.
	CreateSandboxListing CreateSandboxListingHandler
	SandboxVeroCheck     SandboxVeroCheckHandler
	ResetSandbox         ResetSandboxHandler
	ExpireCredits        ExpireCreditsHandler // and its sweeper, run by the API process
	SetAlerts            SetAlertsHandler     // balance alerts (issue 33)
	// The seller's billing, through the provider: checkouts, cancel and
	// resume.
	StartSubscription  StartSubscriptionHandler
	PurchaseCredits    PurchaseCreditsHandler
	CancelSubscription CancelSubscriptionHandler
	OpenBillingPortal  OpenBillingPortalHandler
	// What the provider reports: Stripe's webhook deliveries.
	ApplyStripeEvent   ApplyStripeEventHandler
	ResumeSubscription ResumeSubscriptionHandler
	// The staff console's actions (issue 26): adjustments, the support
	// inbox, money actions through the provider.
	AdjustCredits           AdjustCreditsHandler
	ReplySupportRequest     ReplySupportRequestHandler
	SetSupportRequestStatus SetSupportRequestStatusHandler
	StaffRefund             StaffRefundHandler
	StaffCancelSubscription StaffCancelSubscriptionHandler
	// The simulated provider's development stand-ins for the browser and
	// for Stripe (the dev routes); each refuses with
	// payments.ErrNotSimulated when another provider is active.
	ConfirmSimulatedPayment ConfirmSimulatedPaymentHandler
	AdvanceSimulatedCycle   AdvanceSimulatedCycleHandler
	RefundSimulatedPayment  RefundSimulatedPaymentHandler
	DisputeSimulatedPayment DisputeSimulatedPaymentHandler
	SetSpendLimits          SetSpendLimitsHandler // issue 33: the seller's daily and monthly caps
	// The seller's webhook endpoints (issue 35); DisableWebhookEndpoint is
	// the worker's.
	AddWebhookEndpoint     AddWebhookEndpointHandler
	RemoveWebhookEndpoint  RemoveWebhookEndpointHandler
	RollWebhookSecret      RollWebhookSecretHandler
	ResendWebhookDelivery  ResendWebhookDeliveryHandler
	DisableWebhookEndpoint DisableWebhookEndpointHandler
	// Auto-recharge (issue 33 item 2): the card, the settings, and the
	// worker that charges the recharges the spends request.
	SavePaymentMethod   SavePaymentMethodHandler
	RemovePaymentMethod RemovePaymentMethodHandler
	SetAutoRecharge     SetAutoRechargeHandler
	RunRecharges        RunRechargesHandler
	// ConfirmRechargePayment opens a recharge waiting for 3-D Secure.
	ConfirmRechargePayment ConfirmRechargePaymentHandler
}

// New builds every use case on d.
func New(d Deps) Commands {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	change := subscriptionChange{accounts: d.Accounts, payments: d.Payments}
	notes := notifications{accounts: d.Accounts, payments: d.Payments, log: d.Log}
	sim := simulated{notifications: notes, sim: d.Payments}
	spend := spender{accounts: d.Accounts, keys: d.KeyCache, log: d.Log}
	send := SendVerificationCodeHandler{auth: d.Auth, now: d.Now, compose: d.VerificationMail, queued: d.MailQueued}
	return Commands{
		VerifyEmail:          VerifyEmailHandler{accounts: d.Accounts, auth: d.Auth},
		SendVerificationCode: send,
		CompleteReset:        CompleteResetHandler{accounts: d.Accounts, auth: d.Auth, now: d.Now},
		Register:             RegisterHandler{accounts: d.Accounts, auth: d.Auth, keys: d.Keys, now: d.Now, sendCode: send, log: d.Log},
		RotateAPIKey:         RotateAPIKeyHandler{accounts: d.Accounts, keys: d.Keys},
		CreateAPIKey:         CreateAPIKeyHandler{accounts: d.Accounts, keys: d.Keys},
		RevokeAPIKey:         RevokeAPIKeyHandler{accounts: d.Accounts},
		ExpireAPIKeys:        ExpireAPIKeysHandler{accounts: d.Accounts, auth: d.Auth},
		CreateSandboxListing: CreateSandboxListingHandler{sandbox: d.Sandbox},
		SandboxVeroCheck:     SandboxVeroCheckHandler{sandbox: d.Sandbox},
		ResetSandbox:         ResetSandboxHandler{sandbox: d.Sandbox},
		ExpireCredits:        ExpireCreditsHandler{accounts: d.Accounts},
		SetAlerts:            SetAlertsHandler{accounts: d.Accounts},
		CreateListing:        CreateListingHandler{spend},
		VeroCheck:            VeroCheckHandler{spend},
		SendSupportRequest: SendSupportRequestHandler{accounts: d.Accounts, store: d.Support, now: d.Now,
			compose: d.SupportMail, queued: d.MailQueued},
		StartSubscription:  StartSubscriptionHandler{checkout{accounts: d.Accounts, payments: d.Payments}},
		PurchaseCredits:    PurchaseCreditsHandler{checkout{accounts: d.Accounts, payments: d.Payments}},
		CancelSubscription: CancelSubscriptionHandler{change},
		OpenBillingPortal:  OpenBillingPortalHandler{payments: d.Payments},
		ApplyStripeEvent:   ApplyStripeEventHandler{notes},
		ResumeSubscription: ResumeSubscriptionHandler{change},
		AdjustCredits:      AdjustCreditsHandler{accounts: d.Accounts},
		ReplySupportRequest: ReplySupportRequestHandler{store: d.Support, now: d.Now, compose: d.SupportReplyMail,
			queued: d.MailQueued},
		SetSupportRequestStatus: SetSupportRequestStatusHandler{store: d.Support, now: d.Now},
		StaffRefund:             StaffRefundHandler{simulated: sim, payments: d.Payments},
		StaffCancelSubscription: StaffCancelSubscriptionHandler{simulated: sim, payments: d.Payments},
		ConfirmSimulatedPayment: ConfirmSimulatedPaymentHandler{sim},
		AdvanceSimulatedCycle:   AdvanceSimulatedCycleHandler{sim},
		RefundSimulatedPayment:  RefundSimulatedPaymentHandler{sim},
		DisputeSimulatedPayment: DisputeSimulatedPaymentHandler{sim},
		SetSpendLimits:          NewSetSpendLimits(d.Accounts),
		AddWebhookEndpoint:      AddWebhookEndpointHandler{accounts: d.Accounts, store: d.Webhooks, policy: d.WebhookPolicy},
		RemoveWebhookEndpoint:   RemoveWebhookEndpointHandler{accounts: d.Accounts, store: d.Webhooks},
		RollWebhookSecret:       RollWebhookSecretHandler{accounts: d.Accounts, store: d.Webhooks},
		ResendWebhookDelivery:   ResendWebhookDeliveryHandler{store: d.Webhooks, now: d.Now, queued: d.WebhooksQueued},
		DisableWebhookEndpoint: DisableWebhookEndpointHandler{accounts: d.Accounts, store: d.Webhooks,
			compose: d.WebhookDisabledMail, queued: d.MailQueued},
		SavePaymentMethod:      SavePaymentMethodHandler{accounts: d.Accounts, payments: d.Payments},
		RemovePaymentMethod:    RemovePaymentMethodHandler{payments: d.Payments},
		SetAutoRecharge:        SetAutoRechargeHandler{accounts: d.Accounts},
		ConfirmRechargePayment: ConfirmRechargePaymentHandler{accounts: d.Accounts, payments: d.Payments},
		RunRecharges:           RunRechargesHandler{accounts: d.Accounts, payments: d.Payments, sim: sim, queued: queued(d.MailQueued), log: d.Log},
	}
}

// queued is f, or a function that does nothing.
func queued(f func()) func() {
	if f == nil {
		return func() {}
	}
	return f
}
