// Package query is the read side of the application: one file per read the
// HTTP layer answers, each a handler over a small interface that the
// infrastructure implements (projections.Reader, accounts.Repository,
// staff.Console, listings.Ledger, supportrequests.Store, staffaudit.Log,
// pages.Store, mail.Mailbox). Reads never change the ledger; what changes it
// is in internal/app/command. docs/application-layer.md says where a new
// read goes.
package query

import (
	"log/slog"
	"time"
)

// ReadYourWrites bounds how long a read waits for the projector to apply
// what the caller has just written.
const ReadYourWrites = 3 * time.Second

// Queries are the reads, built once by New.
type Queries struct {
	Profile         ProfileHandler
	Verified        VerifiedHandler
	Usage           UsageHandler
	Transactions    TransactionsHandler
	Receipt         ReceiptHandler // a payment and its receipt (issue 38)
	SupportRequests SupportRequestsHandler
	DesktopAccount  DesktopAccountHandler
	Listing         ListingHandler
	Listings        ListingsHandler
	StaffSearch     StaffSearchHandler
	StaffAccount    StaffAccountHandler
	StaffHistory    StaffHistoryHandler
	StaffBalance    StaffBalanceHandler
	StaffComparison StaffComparisonHandler
	StaffAudit      StaffAuditHandler
	SupportInbox    SupportInboxHandler
	SupportThread   SupportThreadHandler
	Page            PageHandler
	DevMail         DevMailHandler
	SpendLimits     SpendLimitsHandler
	Alerts          AlertsHandler
	DailyUsage      *Usage // usage per day and the CSV exports (issue 35)
	// The seller's webhook endpoints and their delivery logs (issue 35).
	WebhookEndpoints  WebhookEndpointsHandler
	WebhookDeliveries WebhookDeliveriesHandler
	AutoRecharge      AutoRechargeHandler // issue 33 item 2
	APIKeys           APIKeysHandler      // the API Keys page's list (issue 34)
	Sandbox           SandboxHandler      // test mode's reads (issue 34)
}

// Sources are what the reads read from; each field is the union of the
// small interfaces its reads declare.
type Sources struct {
	ReadTables interface {
		ProfileReader
		UsageReader
		AlertSettingsReader
		TransactionsReader
		ReceiptReader
	}
	Projector interface {
		StreamWaiter
		PositionWaiter
	}
	Accounts   AccountSnapshots
	Keys       KeyDecrypter
	KeyLister  KeyLister
	Sandbox    SandboxReader
	Listings   ListingReader
	Support    SellerSupportReader
	Staff      StaffConsole
	Audit      AuditReader
	Pages      PageReader
	Mailbox    MailboxReader
	DailyUsage *Usage
	Webhooks   interface {
		WebhookEndpointsReader
		WebhookDeliveriesReader
	}
	Now func() time.Time // the accounts' clock, in UTC
	Log *slog.Logger
}

// New builds the reads on s.
func New(s Sources) Queries {
	q := Queries{
		Profile:           ProfileHandler{profiles: s.ReadTables, projector: s.Projector, keys: s.Keys, now: s.Now, log: s.Log},
		Verified:          VerifiedHandler{profiles: s.ReadTables},
		Usage:             UsageHandler{usage: s.ReadTables},
		Transactions:      TransactionsHandler{transactions: s.ReadTables},
		Receipt:           ReceiptHandler{payments: s.ReadTables},
		SupportRequests:   SupportRequestsHandler{support: s.Support},
		DesktopAccount:    DesktopAccountHandler{accounts: s.Accounts, now: s.Now},
		Listing:           ListingHandler{listings: s.Listings},
		Listings:          ListingsHandler{listings: s.Listings},
		StaffSearch:       StaffSearchHandler{staff: s.Staff},
		StaffAccount:      StaffAccountHandler{staff: s.Staff},
		StaffHistory:      StaffHistoryHandler{staff: s.Staff},
		StaffBalance:      StaffBalanceHandler{staff: s.Staff, now: s.Now},
		StaffComparison:   StaffComparisonHandler{staff: s.Staff, projector: s.Projector, log: s.Log},
		StaffAudit:        StaffAuditHandler{audit: s.Audit},
		SupportInbox:      SupportInboxHandler{staff: s.Staff},
		SupportThread:     SupportThreadHandler{staff: s.Staff},
		Page:              PageHandler{pages: s.Pages},
		DevMail:           DevMailHandler{mailbox: s.Mailbox},
		SpendLimits:       NewSpendLimits(s.Accounts, s.Now),
		DailyUsage:        s.DailyUsage,
		WebhookEndpoints:  WebhookEndpointsHandler{endpoints: s.Webhooks},
		WebhookDeliveries: WebhookDeliveriesHandler{deliveries: s.Webhooks},
		AutoRecharge:      NewAutoRecharge(s.Accounts, s.Now),
		APIKeys:           APIKeysHandler{keys: s.KeyLister, decrypt: s.Keys},
		Sandbox:           SandboxHandler{sandbox: s.Sandbox},
	}
	q.Alerts = AlertsHandler{profile: q.Profile, settings: s.ReadTables}
	return q
}
