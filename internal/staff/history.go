// Package staff answers support staff's question "where did my credits go?":
// an account's history read from the event store with a human summary,
// credit change and running balance per event, the balance at any moment,
// and a comparison of the read tables with a replay of the events.
package staff

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/catalog"
)

// Entry is one event of an account's history.
type Entry struct {
	Version        int64     `json:"version"`
	Position       int64     `json:"position"`
	Time           time.Time `json:"time"`
	Type           string    `json:"type"`
	Actor          string    `json:"actor"`
	Reason         string    `json:"reason,omitempty"` // a staff member's, for an action asked from the console
	Summary        string    `json:"summary"`
	CreditChange   int64     `json:"creditChange"`
	RunningBalance int64     `json:"runningBalance"`
}

// Page is a page of history, oldest first; NextCursor is empty on the last.
type Page struct {
	Entries    []Entry `json:"entries"`
	NextCursor string  `json:"nextCursor,omitempty"`
}

// ErrBadCursor is returned for a cursor this server did not issue.
var ErrBadCursor = domain.Errorf(domain.CodeInvalid, "Invalid cursor")

// History pages through account histories. The cursor carries the running
// balance where the previous page ended, signed so it cannot be forged, so a
// page costs the same on a stream of any length.
type History struct {
	store *eventstore.Store
	key   []byte
}

// NewHistory returns a History; secret signs cursors.
func NewHistory(store *eventstore.Store, secret string) *History {
	k := sha256.Sum256([]byte("a2e staff cursor\x00" + secret))
	return &History{store: store, key: k[:]}
}

// Page returns up to limit events of account id after cursor, only those
// recorded at or before asOf when asOf is not nil.
func (h *History) Page(ctx context.Context, id string, asOf *time.Time, cursor string, limit int) (Page, error) {
	after, balance, err := h.parseCursor(id, cursor)
	if err != nil {
		return Page{}, err
	}
	recs, err := h.store.ReadStream(ctx, domain.StreamID(id), after, limit+1)
	if err != nil {
		return Page{}, err
	}
	if after == 0 && len(recs) == 0 {
		return Page{}, accounts.ErrNotFound
	}
	more := len(recs) > limit
	if more {
		recs = recs[:limit]
	}
	page := Page{Entries: make([]Entry, 0, len(recs))}
	for _, rec := range recs {
		if asOf != nil && rec.RecordedAt.After(*asOf) {
			more = false
			break
		}
		ev, err := domain.DecodeEvent(rec.Type, rec.SchemaVersion, rec.Data)
		if err != nil {
			return Page{}, fmt.Errorf("decode event %d: %w", rec.GlobalPosition, err)
		}
		summary, change := Describe(ev)
		balance += change
		page.Entries = append(page.Entries, Entry{
			Version: rec.StreamVersion, Position: rec.GlobalPosition, Time: rec.RecordedAt, Type: rec.Type,
			Actor: rec.Metadata.Actor, Reason: rec.Metadata.Reason, Summary: summary, CreditChange: change, RunningBalance: balance,
		})
	}
	if more && len(page.Entries) > 0 {
		page.NextCursor = h.cursor(id, page.Entries[len(page.Entries)-1].Version, balance)
	}
	return page, nil
}

func (h *History) sign(id string, version, balance int64) string {
	m := hmac.New(sha256.New, h.key)
	fmt.Fprintf(m, "%s|%d|%d", id, version, balance)
	return hex.EncodeToString(m.Sum(nil)[:16])
}

func (h *History) cursor(id string, version, balance int64) string {
	raw := fmt.Sprintf("%d.%d.%s", version, balance, h.sign(id, version, balance))
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

func (h *History) parseCursor(id, cursor string) (version, balance int64, err error) {
	if cursor == "" {
		return 0, 0, nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return 0, 0, ErrBadCursor
	}
	parts := strings.Split(string(raw), ".")
	if len(parts) != 3 {
		return 0, 0, ErrBadCursor
	}
	version, err1 := strconv.ParseInt(parts[0], 10, 64)
	balance, err2 := strconv.ParseInt(parts[1], 10, 64)
	if err := errors.Join(err1, err2); err != nil || !hmac.Equal([]byte(parts[2]), []byte(h.sign(id, version, balance))) {
		return 0, 0, ErrBadCursor
	}
	return version, balance, nil
}

// Describe says in words what an event did and how it changed the balance
// (the domain's CreditDelta).
func Describe(ev domain.Event) (summary string, creditChange int64) {
	return summarize(ev), domain.CreditDelta(ev)
}

// spentText says what a spend took.
func spentText(e domain.CreditsSpent) string {
	s := fmt.Sprintf("%d credit%s spent on %s", e.Amount, plural(e.Amount), strings.ReplaceAll(e.Operation, "_", " "))
	if e.Reference != "" {
		s += " (" + e.Reference + ")"
	}
	return s
}

// withSpent adds to what a listing or a VeRO check did the charge it carries:
// one line per spend. One recorded before carries none; its CreditsSpent
// has its own line.
func withSpent(s string, spent *domain.CreditsSpent) string {
	if spent == nil {
		return s
	}
	return s + "; " + spentText(*spent)
}

// summarize says in words what an event did.
func summarize(ev domain.Event) string {
	date := func(t time.Time) string { return t.UTC().Format("Jan 02, 2006") }
	switch e := ev.(type) {
	case domain.AccountRegistered:
		return "Registered as " + e.Email
	case domain.EmailVerified:
		return "Email verified"
	case domain.PasswordChanged:
		return "Password changed (" + e.Reason + ")"
	case domain.APIKeyIssued:
		return "API key issued (" + e.Prefix + "…)"
	case domain.APIKeyRotated:
		if e.PreviousRetiresAt != nil {
			return "API key rotated (" + e.Prefix + "…); the previous key works until " + e.PreviousRetiresAt.UTC().Format(time.RFC3339)
		}
		return "API key regenerated (" + e.Prefix + "…); the previous key stopped working"
	case domain.APIKeyCreated:
		return fmt.Sprintf("API key %q created (%s…, %s)", e.Name, e.Prefix, e.Mode)
	case domain.APIKeyRevoked:
		return "API key " + e.KeyID + " revoked"
	case domain.APIKeyExpired:
		return "API key " + e.KeyID + " stopped working (" + e.Reason + ")"
	case domain.SubscriptionActivated:
		return fmt.Sprintf("Subscription activated, paid until %s", date(e.PeriodEnd))
	case domain.SubscriptionRenewed:
		return fmt.Sprintf("Subscription renewed, paid until %s", date(e.PeriodEnd))
	case domain.SubscriptionPastDue:
		return "Subscription past due (renewal payment failed)"
	case domain.SubscriptionCancelled:
		return fmt.Sprintf("Subscription cancelled, active until %s", date(e.EndsAt))
	case domain.SubscriptionResumed:
		return fmt.Sprintf("Cancellation undone, renews %s", date(e.PeriodEnd))
	case domain.SubscriptionEnded:
		return "Subscription ended"
	case domain.CreditsGranted:
		s := fmt.Sprintf("%d %s credits granted", e.Amount, e.Source)
		if e.ExpiresAt != nil {
			s += ", expiring " + date(*e.ExpiresAt)
		}
		if e.Reason != "" {
			s += ": " + e.Reason
		}
		return s
	case domain.CreditsSpent:
		return spentText(e)
	case domain.CreditsDebited:
		return fmt.Sprintf("%d credit%s removed by staff: %s", e.Amount, plural(e.Amount), e.Reason)
	case domain.CreditsExpired:
		return fmt.Sprintf("%d unspent credit%s expired", e.Amount, plural(e.Amount))
	case domain.ListingRequested:
		return withSpent("Listing requested for ASIN "+e.ASIN, e.Spent)
	case domain.VeroCheckPerformed:
		verdict := "not protected"
		if e.Protected {
			verdict = "protected"
		}
		return withSpent(fmt.Sprintf("VeRO check of %q: %s", e.Brand, verdict), e.Spent)
	case domain.SoftwareDownloaded:
		return fmt.Sprintf("Downloaded the %s software v%s", e.Platform, e.Version)
	case domain.PaymentRecorded:
		return fmt.Sprintf("Payment %s of %s: %s", e.Status, catalog.Dollars(e.AmountCents), e.Description)
	case domain.StaffNoteRecorded:
		return "Staff note: " + e.Note
	case domain.SpendLimitsSet:
		return "Spend limits set: daily " + limitText(e.DailyCredits) + ", monthly " + limitText(e.MonthlyCredits)
	case domain.SpendLimitReached:
		period := "Monthly"
		if e.Period == domain.SpendLimitDaily {
			period = "Daily"
		}
		return fmt.Sprintf("%s spend limit of %d credit%s reached (%d spent)", period, e.Limit, plural(e.Limit), e.Spent)
	case domain.PaymentRefunded:
		return fmt.Sprintf("Payment %s %s: %s refunded in total", e.PaymentID, strings.ReplaceAll(e.Status, "_", " "),
			catalog.Dollars(e.AmountCents))
	case domain.CreditsRevoked:
		s := fmt.Sprintf("%d credit%s taken back for %s of %s", e.Amount, plural(e.Amount), strings.ReplaceAll(e.Reason, "_", " "), e.PaymentID)
		if e.Debt > 0 {
			s += fmt.Sprintf("; %d already spent, now owed", e.Debt)
		}
		return s
	case domain.DebtRepaid:
		return fmt.Sprintf("%d owed credit%s repaid from a new grant", e.Amount, plural(e.Amount))
	case domain.DisputeOpened:
		return fmt.Sprintf("Dispute %s opened on %s: spending frozen", e.DisputeID, e.PaymentID)
	case domain.DisputeClosed:
		return fmt.Sprintf("Dispute %s %s", e.DisputeID, e.Outcome)
	case domain.AlertSettingsChanged:
		return "Alerts set: " + alertSetting(e.LowBalanceCredits, "low balance below %d credits") + ", " +
			alertSetting(e.ExpiringReminderDays, "expiry reminder %d days before")
	case domain.LowBalanceAlerted:
		return fmt.Sprintf("Low-balance alert mailed: %d credits left, below %d", e.Available, e.Threshold)
	case domain.BalanceRecovered:
		return fmt.Sprintf("Balance recovered to %d credits (alert at %d); mailed", e.Available, e.Threshold)
	case domain.ExpiryReminderSent:
		return fmt.Sprintf("Reminder mailed: %d monthly credit%s expire %s", e.Credits, plural(e.Credits), date(e.ExpiresAt))
	case domain.WebhookEndpointAdded:
		return fmt.Sprintf("Webhook endpoint %s added: %s (%s)", e.EndpointID, e.URL, strings.Join(e.Events, ", "))
	case domain.WebhookSecretRolled:
		return fmt.Sprintf("Webhook endpoint %s: signing secret rolled", e.EndpointID)
	case domain.WebhookEndpointRemoved:
		return fmt.Sprintf("Webhook endpoint %s removed", e.EndpointID)
	case domain.WebhookEndpointDisabled:
		return fmt.Sprintf("Webhook endpoint %s disabled: %s; mailed", e.EndpointID, e.Reason)
	case domain.AutoRechargeSet:
		state := "off"
		if e.Enabled {
			state = "on"
		}
		return fmt.Sprintf("Auto-recharge set %s: %d credits (%s) when below %d credits, at most %s a month", state,
			e.PackCredits, catalog.Dollars(e.PackAmountCents), e.ThresholdCredits, catalog.Dollars(e.MonthlyLimitCents))
	case domain.PaymentMethodSaved:
		return fmt.Sprintf("Card saved for auto-recharge: %s ending %s", e.Brand, e.Last4)
	case domain.PaymentMethodRemoved:
		return "Card for auto-recharge removed"
	case domain.RechargeRequested:
		return fmt.Sprintf("Auto-recharge %s started: %d credits for %s (%d available, below %d)", e.RechargeID, e.Credits,
			catalog.Dollars(e.AmountCents), e.Available, e.Threshold)
	case domain.RechargeFailed:
		return fmt.Sprintf("Auto-recharge %s failed (%d in a row): %s", e.RechargeID, e.Failures, e.Reason)
	case domain.RechargeNeedsAction:
		return fmt.Sprintf("Auto-recharge %s needs the seller's authentication (%s); payment link mailed", e.RechargeID, e.PaymentID)
	case domain.AutoRechargeDisabled:
		return "Auto-recharge turned off: " + strings.ReplaceAll(e.Reason, "_", " ") + "; seller mailed"
	default:
		return ev.EventType()
	}
}

func plural(n int64) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// alertSetting is one alert setting in words, "off" when unset.
func alertSetting[T int | int64](v *T, format string) string {
	if v == nil {
		return "off"
	}
	return fmt.Sprintf(format, *v)
}
