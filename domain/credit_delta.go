package domain

import "fmt"

// CreditDelta is how e moves an account's credits on hand: the grants'
// remaining credits, counting a grant past its expiry until its
// CreditsExpired event. It is the one statement of that rule; the profiles
// projection's available balance and the staff history's credit change read
// it, and the account's own fold (state.apply) is tested against it.
// Events that move no credits give 0; an event type without a case panics,
// so a new event has to be placed here (TestCreditDeltaHasACaseForEveryEventType).
func CreditDelta(e Event) int64 {
	if spent, ok := SpendOf(e); ok { // a CreditsSpent, or the charge a listing or VeRO check carries
		return -spent.Amount
	}
	switch e := e.(type) {
	case CreditsGranted:
		return e.Amount
	case CreditsDebited:
		return -e.Amount
	case CreditsExpired:
		return -e.Amount
	case CreditsRevoked:
		return -e.Amount
	case DebtRepaid:
		return -e.Amount
	case AccountRegistered, EmailVerified, PasswordChanged, APIKeyIssued, APIKeyRotated,
		APIKeyCreated, APIKeyRevoked, APIKeyExpired,
		SubscriptionActivated, SubscriptionRenewed, SubscriptionPastDue, SubscriptionCancelled,
		SubscriptionResumed, SubscriptionEnded, ListingRequested, VeroCheckPerformed,
		SoftwareDownloaded, PaymentRecorded, PaymentRefunded, DisputeOpened, DisputeClosed,
		StaffNoteRecorded, SpendLimitsSet, SpendLimitReached, AlertSettingsChanged, LowBalanceAlerted, BalanceRecovered, ExpiryReminderSent,
		WebhookEndpointAdded, WebhookSecretRolled, WebhookEndpointRemoved, WebhookEndpointDisabled,
		AutoRechargeSet, PaymentMethodSaved, PaymentMethodRemoved, RechargeRequested, RechargeFailed,
		RechargeNeedsAction, AutoRechargeDisabled:
		return 0
	default:
		panic(fmt.Sprintf("domain: CreditDelta: event %T has no case", e))
	}
}
