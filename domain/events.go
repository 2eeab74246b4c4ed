package domain

import "time"

// Event is a fact recorded in a seller account's stream. Every event is a
// past-tense struct with a constant type name. A changed meaning is a new type
// (…V2) with an upcaster in codec.go, never an edit of an existing one.
//
// Events never carry secrets: no password, session token, reset token,
// verification code or plain API key. API keys appear only as a lookup hash and
// an encrypted value produced outside the domain.
type Event interface {
	EventType() string
}

// Credit sources.
const (
	SourceMonthly    = "monthly"    // the subscription's credits for one billing cycle; expire at the cycle's end
	SourcePurchase   = "purchase"   // a credit pack; never expires
	SourceAdjustment = "adjustment" // granted by support staff
	SourcePromo      = "promo"      // promotional; may expire
)

// Metered operations, each costing 1 credit.
const (
	OperationListing    = "listing"
	OperationVeroCheck  = "vero_check"
	OperationAPIRequest = "api_request"
)

// Subscription statuses as the product shows them (spec section 4).
const (
	StatusInactive = "inactive"
	StatusActive   = "active"
	// StatusCancelling is a subscription cancelled at the end of its paid
	// period: access and the cycle's credits last until then.
	StatusCancelling = "cancelling"
	StatusPastDue    = "past_due"
	StatusCancelled  = "cancelled"
)

// Payment kinds and statuses recorded for the transactions list.
const (
	PaymentKindSubscription = "subscription"
	PaymentKindCredits      = "credits"

	PaymentPaid    = "paid"
	PaymentPending = "pending"
	PaymentFailed  = "failed"
	// PaymentNeedsReview is a payment taken for something the account must
	// not get (a second subscription): nothing is granted and staff refund it.
	PaymentNeedsReview = "needs_review"

	// Statuses a paid payment moves to afterwards.
	PaymentRefundedInFull    = "refunded"
	PaymentPartiallyRefunded = "partially_refunded"
	PaymentDisputed          = "disputed"
	PaymentChargedBack       = "chargeback" // a dispute lost
)

// Reasons credits are revoked.
const (
	RevokedForRefund      = "refund"
	RevokedForDisputeLost = "dispute_lost"
)

// Dispute outcomes.
const (
	DisputeWon  = "won"
	DisputeLost = "lost"
)

// AccountRegistered opens an account's stream.
type AccountRegistered struct {
	AccountID string `json:"accountId"`
	Email     string `json:"email"`
}

// EmailVerified records that the seller proved ownership of the address.
type EmailVerified struct{}

// PasswordChanged records that the password changed; the hash lives in an
// operational table, never here.
type PasswordChanged struct {
	Reason string `json:"reason"` // "reset" or "change"
}

// APIKeyIssued records the first API key of an account.
type APIKeyIssued struct {
	KeyID     string `json:"keyId"`
	Prefix    string `json:"prefix"`
	Hash      string `json:"hash"`
	Encrypted string `json:"encrypted"`
}

// APIKeyRotated replaces key PreviousKeyID by KeyID; the previous one stops
// working at once, or at PreviousRetiresAt when the rotation gave it a grace.
// Secondary: the key replaced is not the primary ("Default") one, and the
// new key takes its Name, Mode and ExpiresAt (recorded here).
type APIKeyRotated struct {
	KeyID             string     `json:"keyId"`
	PreviousKeyID     string     `json:"previousKeyId"`
	Prefix            string     `json:"prefix"`
	Hash              string     `json:"hash"`
	Encrypted         string     `json:"encrypted"`
	PreviousRetiresAt *time.Time `json:"previousRetiresAt,omitempty"`
	Secondary         bool       `json:"secondary,omitempty"`
	Name              string     `json:"name,omitempty"`
	Mode              string     `json:"mode,omitempty"`
	ExpiresAt         *time.Time `json:"expiresAt,omitempty"`
}

// APIKeyCreated adds a named key beside the primary one.
type APIKeyCreated struct {
	KeyID     string     `json:"keyId"`
	Name      string     `json:"name"`
	Mode      string     `json:"mode"`
	Prefix    string     `json:"prefix"`
	Hash      string     `json:"hash"`
	Encrypted string     `json:"encrypted"`
	ExpiresAt *time.Time `json:"expiresAt,omitempty"`
}

// APIKeyRevoked stops a key at once, at the seller's request.
type APIKeyRevoked struct {
	KeyID string `json:"keyId"`
}

// APIKeyExpired records that a key stopped working on its own: its expiry
// came, or its rotation's grace ended (Reason, KeyExpiredReason*).
type APIKeyExpired struct {
	KeyID  string `json:"keyId"`
	Reason string `json:"reason"`
}

// SubscriptionActivated starts a subscription with its first paid cycle.
type SubscriptionActivated struct {
	SubscriptionID string    `json:"subscriptionId"`
	PeriodStart    time.Time `json:"periodStart"`
	PeriodEnd      time.Time `json:"periodEnd"`
}

// SubscriptionRenewed starts a further paid cycle.
type SubscriptionRenewed struct {
	SubscriptionID string    `json:"subscriptionId"`
	PeriodStart    time.Time `json:"periodStart"`
	PeriodEnd      time.Time `json:"periodEnd"`
}

// SubscriptionPastDue records a failed renewal payment.
type SubscriptionPastDue struct {
	SubscriptionID string `json:"subscriptionId"`
}

// SubscriptionCancelled records a cancellation at the end of the current
// period; the cycle's monthly credits stay usable until they expire.
type SubscriptionCancelled struct {
	SubscriptionID string    `json:"subscriptionId"`
	EndsAt         time.Time `json:"endsAt"`
}

// SubscriptionResumed undoes a pending cancellation before its end: the
// subscription renews again at PeriodEnd.
type SubscriptionResumed struct {
	SubscriptionID string    `json:"subscriptionId"`
	PeriodEnd      time.Time `json:"periodEnd"`
}

// SubscriptionEnded records that the subscription is over.
type SubscriptionEnded struct {
	SubscriptionID string `json:"subscriptionId"`
}

// CreditsGranted adds credits. ExpiresAt is nil for credits that never expire.
type CreditsGranted struct {
	GrantID   string     `json:"grantId"`
	Amount    int64      `json:"amount"`
	Source    string     `json:"source"`
	ExpiresAt *time.Time `json:"expiresAt,omitempty"`
	Reference string     `json:"reference,omitempty"` // invoice, payment or adjustment id
	Reason    string     `json:"reason,omitempty"`    // staff adjustments
}

// Draw is the part of a spend or debit taken from one grant.
type Draw struct {
	GrantID string `json:"grantId"`
	Amount  int64  `json:"amount"`
}

// CreditsSpent takes credits for a metered operation, recording which grants
// it drew from: soonest-expiring first, then non-expiring oldest first.
type CreditsSpent struct {
	Amount    int64  `json:"amount"`
	Operation string `json:"operation"`
	Reference string `json:"reference,omitempty"` // listing id, check id or request id
	Draws     []Draw `json:"draws"`
	// The API key the spend was made with (Account.RequireAPIKey), never
	// the key itself; empty for a spend made otherwise.
	KeyID     string `json:"keyId,omitempty"`
	KeyName   string `json:"keyName,omitempty"`
	KeyPrefix string `json:"keyPrefix,omitempty"`
}

// CreditsDebited removes credits by a staff adjustment, drawn like a spend.
type CreditsDebited struct {
	Amount int64  `json:"amount"`
	Reason string `json:"reason"`
	Draws  []Draw `json:"draws"`
}

// CreditsExpired removes the unspent remainder of a grant at its expiry.
type CreditsExpired struct {
	GrantID string `json:"grantId"`
	Amount  int64  `json:"amount"`
}

// ListingRequested records a paid request to copy an Amazon product to eBay.
// Spent is the charge it carries (one event per spend); nil in the events
// recorded before it, where a CreditsSpent precedes it (SpendOf).
type ListingRequested struct {
	ListingID string        `json:"listingId"`
	ASIN      string        `json:"asin"`
	AmazonURL string        `json:"amazonUrl"`
	Spent     *CreditsSpent `json:"spent,omitempty"`
}

// VeroCheckPerformed records a paid VeRO protected-brand check. Spent is the
// charge it carries, nil in the two-event form recorded before (SpendOf).
type VeroCheckPerformed struct {
	CheckID   string        `json:"checkId"`
	Brand     string        `json:"brand"`
	Protected bool          `json:"protected"`
	Spent     *CreditsSpent `json:"spent,omitempty"`
}

// SpendOf is what e charges: a CreditsSpent itself, or the charge a
// ListingRequested or VeroCheckPerformed carries (one event per spend).
// Both forms stay in the log forever: a ListingRequested or
// VeroCheckPerformed recorded before carries none (its CreditsSpent precedes
// it), so every fold that reads spends reads them through SpendOf.
func SpendOf(e Event) (CreditsSpent, bool) {
	switch e := e.(type) {
	case CreditsSpent:
		return e, true
	case ListingRequested:
		if e.Spent != nil {
			return *e.Spent, true
		}
	case VeroCheckPerformed:
		if e.Spent != nil {
			return *e.Spent, true
		}
	}
	return CreditsSpent{}, false
}

// SoftwareDownloaded records a download of the desktop software.
type SoftwareDownloaded struct {
	Platform string `json:"platform"`
	Version  string `json:"version"`
}

// PaymentRecorded records a payment's outcome for the transactions list. A
// payment id appears once per status: a repeat with the same status is ignored.
type PaymentRecorded struct {
	PaymentID   string `json:"paymentId"`
	Kind        string `json:"kind"`
	Description string `json:"description"`
	AmountCents int64  `json:"amountCents"`
	Status      string `json:"status"`
	InvoiceURL  string `json:"invoiceUrl,omitempty"`
	Credits     int64  `json:"credits,omitempty"`
	// GrantID is the grant the payment bought (a paid payment's), which a
	// refund or a lost dispute takes back first.
	GrantID string `json:"grantId,omitempty"`
	// Recharge is the auto-recharge the payment pays ("" for a purchase or
	// a subscription's): its outcome ends the recharge in flight.
	Recharge string `json:"recharge,omitempty"`
	// Card is the card charged when the ledger knows it (an
	// auto-recharge's, the saved card); nil otherwise. Shown on the
	// payment's receipt.
	Card *Card `json:"card,omitempty"`
}

// PaymentRefunded records a refund of a paid payment: AmountCents is the
// amount refunded so far, in total; Status is refunded or
// partially_refunded.
type PaymentRefunded struct {
	PaymentID   string `json:"paymentId"`
	AmountCents int64  `json:"amountCents"`
	Status      string `json:"status"`
}

// CreditsRevoked takes back the credits of a refunded or lost payment. Share
// is the payment's credits it settles; Amount of them came off the balance
// (Draws, the payment's own grant first) and Debt, the part already spent,
// is owed and repaid by the next grant. A monthly grant's spent credits are
// not owed: Amount + Debt may be less than Share.
type CreditsRevoked struct {
	PaymentID string `json:"paymentId"`
	Share     int64  `json:"share"`
	Amount    int64  `json:"amount"`
	Debt      int64  `json:"debt,omitempty"`
	Reason    string `json:"reason"`
	Draws     []Draw `json:"draws,omitempty"`
}

// DebtRepaid takes owed credits from a new grant.
type DebtRepaid struct {
	Amount int64  `json:"amount"`
	Draws  []Draw `json:"draws"`
}

// DisputeOpened records a chargeback dispute of a paid payment; spending is
// frozen while any dispute is open.
type DisputeOpened struct {
	DisputeID   string `json:"disputeId"`
	PaymentID   string `json:"paymentId"`
	AmountCents int64  `json:"amountCents"`
}

// DisputeClosed ends a dispute, won or lost; PaymentStatus is what the
// payment shows afterwards.
type DisputeClosed struct {
	DisputeID     string `json:"disputeId"`
	PaymentID     string `json:"paymentId"`
	Outcome       string `json:"outcome"`
	PaymentStatus string `json:"paymentStatus"`
}

// StaffNoteRecorded records a support staff action that changes no balance
// (for example a projection rebuild requested for this account).
type StaffNoteRecorded struct {
	Note string `json:"note"`
}

func (AccountRegistered) EventType() string     { return "AccountRegistered" }
func (EmailVerified) EventType() string         { return "EmailVerified" }
func (PasswordChanged) EventType() string       { return "PasswordChanged" }
func (APIKeyIssued) EventType() string          { return "APIKeyIssued" }
func (APIKeyRotated) EventType() string         { return "APIKeyRotated" }
func (APIKeyCreated) EventType() string         { return "APIKeyCreated" }
func (APIKeyRevoked) EventType() string         { return "APIKeyRevoked" }
func (APIKeyExpired) EventType() string         { return "APIKeyExpired" }
func (SubscriptionActivated) EventType() string { return "SubscriptionActivated" }
func (SubscriptionRenewed) EventType() string   { return "SubscriptionRenewed" }
func (SubscriptionPastDue) EventType() string   { return "SubscriptionPastDue" }
func (SubscriptionCancelled) EventType() string { return "SubscriptionCancelled" }
func (SubscriptionResumed) EventType() string   { return "SubscriptionResumed" }
func (SubscriptionEnded) EventType() string     { return "SubscriptionEnded" }
func (PaymentRefunded) EventType() string       { return "PaymentRefunded" }
func (CreditsRevoked) EventType() string        { return "CreditsRevoked" }
func (DebtRepaid) EventType() string            { return "DebtRepaid" }
func (DisputeOpened) EventType() string         { return "DisputeOpened" }
func (DisputeClosed) EventType() string         { return "DisputeClosed" }
func (CreditsGranted) EventType() string        { return "CreditsGranted" }
func (CreditsSpent) EventType() string          { return "CreditsSpent" }
func (CreditsDebited) EventType() string        { return "CreditsDebited" }
func (CreditsExpired) EventType() string        { return "CreditsExpired" }
func (ListingRequested) EventType() string      { return "ListingRequested" }
func (VeroCheckPerformed) EventType() string    { return "VeroCheckPerformed" }
func (SoftwareDownloaded) EventType() string    { return "SoftwareDownloaded" }
func (PaymentRecorded) EventType() string       { return "PaymentRecorded" }
func (StaffNoteRecorded) EventType() string     { return "StaffNoteRecorded" }

// Recorded is an event with the facts the store adds: its place in the
// stream and the moment it was recorded.
type Recorded struct {
	Version int64
	At      time.Time
	Event   Event
}

// schemaVersion is chargeCarrierVersion when the listing carries its charge.
func (e ListingRequested) schemaVersion() int { return carrierVersion(e.Spent) }

// schemaVersion is chargeCarrierVersion when the check carries its charge.
func (e VeroCheckPerformed) schemaVersion() int { return carrierVersion(e.Spent) }

// carrierVersion is the schema version of a charge carrier with spent.
func carrierVersion(spent *CreditsSpent) int {
	if spent != nil {
		return chargeCarrierVersion
	}
	return currentSchemaVersion
}
