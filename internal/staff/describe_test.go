package staff

import (
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
)

// TestDescribe: every event has words of its own, and only the events that
// move credits change the running balance, by the right amount and sign.
func TestDescribe(t *testing.T) {
	end := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		event  domain.Event
		change int64
		words  string
	}{
		{domain.AccountRegistered{AccountID: "a", Email: "s@example.com"}, 0, "s@example.com"},
		{domain.EmailVerified{}, 0, "verified"},
		{domain.PasswordChanged{Reason: "reset"}, 0, "reset"},
		{domain.APIKeyIssued{Prefix: "a2e_abcdef"}, 0, "a2e_abcdef"},
		{domain.APIKeyRotated{Prefix: "a2e_ghijkl"}, 0, "previous key"},
		{domain.SubscriptionActivated{PeriodEnd: end}, 0, "Dec 01, 2026"},
		{domain.SubscriptionRenewed{PeriodEnd: end}, 0, "renewed"},
		{domain.SubscriptionPastDue{}, 0, "past due"},
		{domain.SubscriptionCancelled{EndsAt: end}, 0, "active until Dec 01, 2026"},
		{domain.SubscriptionEnded{}, 0, "ended"},
		{domain.CreditsGranted{Amount: 500, Source: domain.SourceMonthly, ExpiresAt: &end}, 500, "expiring Dec 01, 2026"},
		{domain.CreditsGranted{Amount: 25, Source: domain.SourceAdjustment, Reason: "goodwill"}, 25, "goodwill"},
		{domain.CreditsSpent{Amount: 1, Operation: domain.OperationVeroCheck, Reference: "v-1"}, -1, "1 credit spent on vero check (v-1)"},
		{domain.CreditsDebited{Amount: 3, Reason: "duplicate"}, -3, "3 credits removed by staff: duplicate"},
		{domain.CreditsExpired{Amount: 480}, -480, "480 unspent credits expired"},
		{domain.ListingRequested{ASIN: "B08N5WRWNW"}, 0, "B08N5WRWNW"},
		{domain.VeroCheckPerformed{Brand: "Nike", Protected: true}, 0, `"Nike": protected`},
		// One event per spend: the line names the charge the event carries.
		{domain.ListingRequested{ASIN: "B08N5WRWNW", Spent: &domain.CreditsSpent{Amount: 1, Operation: domain.OperationListing, Reference: "l-1"}},
			-1, "Listing requested for ASIN B08N5WRWNW; 1 credit spent on listing (l-1)"},
		{domain.VeroCheckPerformed{Brand: "Nike", Spent: &domain.CreditsSpent{Amount: 1, Operation: domain.OperationVeroCheck, Reference: "v-2"}},
			-1, `VeRO check of "Nike": not protected; 1 credit spent on vero check (v-2)`},
		{domain.SoftwareDownloaded{Platform: "windows", Version: "2.4.0"}, 0, "v2.4.0"},
		{domain.PaymentRecorded{Status: domain.PaymentPaid, AmountCents: 999, Description: "100 credits"}, 0, "paid of $9.99: 100 credits"},
		{domain.StaffNoteRecorded{Note: "called back"}, 0, "called back"},
		{domain.SpendLimitsSet{DailyCredits: new(int64(100))}, 0, "daily 100 credits, monthly none"},
		{domain.SpendLimitReached{Period: domain.SpendLimitDaily, Limit: 50, Spent: 50}, 0, "Daily spend limit of 50 credits reached (50 spent)"},
		{domain.SpendLimitReached{Period: domain.SpendLimitMonthly, Limit: 1, Spent: 1}, 0, "Monthly spend limit of 1 credit reached (1 spent)"},
	} {
		summary, change := Describe(c.event)
		if change != c.change || !strings.Contains(summary, c.words) {
			t.Errorf("Describe(%s) = %q, %d; want %q in it and %d", c.event.EventType(), summary, change, c.words, c.change)
		}
	}
}
