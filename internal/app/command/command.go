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
	ResetSandbox         ResetSandboxHandler
	ExpireCredits        ExpireCreditsHandler // and its sweeper, run by the API process
	SetAlerts            SetAlertsHandler     // balance alerts (issue 33)
	// The seller's billing, through the provider: checkouts, cancel and
	// resume.
	StartSubscription  StartSubscriptionHandler
	PurchaseCredits    PurchaseCreditsHandler
	CancelSubscription CancelSubscriptionHandler
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
}

// New builds every use case on d.
func New(d Deps) Commands {
	if d.Now == nil {
		d.Now = time.Now
	}
	change := subscriptionChange{accounts: d.Accounts, payments: d.Payments, queued: d.MailQueued}
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
		ResetSandbox:         ResetSandboxHandler{sandbox: d.Sandbox},
		ExpireCredits:        ExpireCreditsHandler{accounts: d.Accounts},
		SetAlerts:            SetAlertsHandler{accounts: d.Accounts},
		CreateListing:        CreateListingHandler{spender{accounts: d.Accounts, keys: d.KeyCache}},
		VeroCheck:            VeroCheckHandler{spender{accounts: d.Accounts, keys: d.KeyCache}},
		SendSupportRequest: SendSupportRequestHandler{accounts: d.Accounts, store: d.Support, now: d.Now,
			compose: d.SupportMail, queued: d.MailQueued},
		StartSubscription:  StartSubscriptionHandler{checkout{accounts: d.Accounts, payments: d.Payments}},
		PurchaseCredits:    PurchaseCreditsHandler{checkout{accounts: d.Accounts, payments: d.Payments}},
		CancelSubscription: CancelSubscriptionHandler{change},
		ApplyStripeEvent:   ApplyStripeEventHandler{payments: d.Payments},
		ResumeSubscription: ResumeSubscriptionHandler{change},
		AdjustCredits:      AdjustCreditsHandler{accounts: d.Accounts},
		ReplySupportRequest: ReplySupportRequestHandler{store: d.Support, now: d.Now, compose: d.SupportReplyMail,
			queued: d.MailQueued},
		SetSupportRequestStatus: SetSupportRequestStatusHandler{store: d.Support, now: d.Now},
		StaffRefund:             StaffRefundHandler{payments: d.Payments},
		StaffCancelSubscription: StaffCancelSubscriptionHandler{payments: d.Payments},
		ConfirmSimulatedPayment: ConfirmSimulatedPaymentHandler{sim: d.Payments},
		AdvanceSimulatedCycle:   AdvanceSimulatedCycleHandler{sim: d.Payments},
		RefundSimulatedPayment:  RefundSimulatedPaymentHandler{sim: d.Payments},
		DisputeSimulatedPayment: DisputeSimulatedPaymentHandler{sim: d.Payments},
		SetSpendLimits:          NewSetSpendLimits(d.Accounts),
	}
}
