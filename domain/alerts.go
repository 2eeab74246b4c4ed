package domain

import (
	"slices"
	"time"
)

// Balance alerts (issue 33 item 1): the seller's thresholds are settings in
// the account's stream, and every alert is an event recorded by the decision
// that caused it (a spend, a grant, an expiry, a change of the settings), so
// that the mail it sends is written in the same commit, once, however many
// commands run at once, and a projector rebuild sends nothing.
//
// Their events live here rather than in events.go, beside the rules that
// record them; they are registered in the codec and every fold like the
// others.

// Bounds of the alert settings.
const (
	// MaxLowBalanceCredits is the largest low-balance threshold: more
	// credits than any seller holds (10,000,000); a larger number is a
	// typing mistake.
	MaxLowBalanceCredits = 10_000_000
	// MinReminderDays and MaxReminderDays bound how many days before
	// monthly credits expire the reminder comes: at least a day, at most a
	// billing cycle (30 days).
	MinReminderDays = 1
	MaxReminderDays = 30
)

// AlertSettings are the seller's alert thresholds; nil turns one off.
type AlertSettings struct {
	// LowBalanceCredits: alert when available credits fall below it.
	LowBalanceCredits *int64 `json:"lowBalanceCredits"`
	// ExpiringReminderDays: remind this many days before monthly credits
	// expire with some unspent.
	ExpiringReminderDays *int `json:"expiringReminderDays"`
}

func (s AlertSettings) equal(o AlertSettings) bool {
	eq := func(x, y *int64) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	days := func(x, y *int) bool { return (x == nil) == (y == nil) && (x == nil || *x == *y) }
	return eq(s.LowBalanceCredits, o.LowBalanceCredits) && days(s.ExpiringReminderDays, o.ExpiringReminderDays)
}

func (s AlertSettings) clone() AlertSettings {
	var c AlertSettings
	if s.LowBalanceCredits != nil {
		v := *s.LowBalanceCredits
		c.LowBalanceCredits = &v
	}
	if s.ExpiringReminderDays != nil {
		v := *s.ExpiringReminderDays
		c.ExpiringReminderDays = &v
	}
	return c
}

// AlertSettingsChanged records the seller's new alert settings (both, as
// set).
type AlertSettingsChanged struct {
	LowBalanceCredits    *int64 `json:"lowBalanceCredits"`
	ExpiringReminderDays *int   `json:"expiringReminderDays"`
}

// LowBalanceAlerted records that available credits fell below the
// threshold: the seller is mailed and the dashboard shows a banner until
// BalanceRecovered.
type LowBalanceAlerted struct {
	Threshold int64 `json:"threshold"`
	Available int64 `json:"available"`
}

// BalanceRecovered records that available credits are back at or above the
// threshold after a LowBalanceAlerted: the seller is mailed a note.
type BalanceRecovered struct {
	Threshold int64 `json:"threshold"`
	Available int64 `json:"available"`
}

// ExpiryReminderSent records the reminder that monthly grant GrantID
// expires at ExpiresAt with Credits unspent: one per grant, so one per
// billing cycle.
type ExpiryReminderSent struct {
	GrantID   string    `json:"grantId"`
	ExpiresAt time.Time `json:"expiresAt"`
	Credits   int64     `json:"credits"`
	Days      int       `json:"days"`
}

func (AlertSettingsChanged) EventType() string { return "AlertSettingsChanged" }
func (LowBalanceAlerted) EventType() string    { return "LowBalanceAlerted" }
func (BalanceRecovered) EventType() string     { return "BalanceRecovered" }
func (ExpiryReminderSent) EventType() string   { return "ExpiryReminderSent" }

// ErrAlertsNeedVerifiedEmail refuses alert settings on an account whose
// email address is not verified: the alerts are emails.
var ErrAlertsNeedVerifiedEmail = Errorf(CodeInvalid, "Verify your email address before you set alerts")

// CheckAlertSettings returns the problem of each field of s, by its JSON
// name; none when s may be saved.
func CheckAlertSettings(s AlertSettings) map[string]string {
	problems := map[string]string{}
	if v := s.LowBalanceCredits; v != nil && (*v < 0 || *v > MaxLowBalanceCredits) {
		problems["lowBalanceCredits"] = "lowBalanceCredits must be a whole number from 0 to 10,000,000, or null"
	}
	if v := s.ExpiringReminderDays; v != nil && (*v < MinReminderDays || *v > MaxReminderDays) {
		problems["expiringReminderDays"] = "expiringReminderDays must be a whole number of days from 1 to 30, or null"
	}
	return problems
}

// Alerts returns the account's alert settings.
func (a *Account) Alerts() AlertSettings { return a.s.Alerts.clone() }

// LowBalance reports whether a low-balance alert is standing: sent, and the
// balance not recovered since.
func (a *Account) LowBalance() bool { return a.s.LowBalance }

// SetAlerts saves the alert settings s, which must pass CheckAlertSettings,
// on a verified account. Saving the settings it has records nothing (and
// is no refusal, even unverified).
func (a *Account) SetAlerts(s AlertSettings, now time.Time) error {
	if s.equal(a.s.Alerts) {
		return nil
	}
	if !a.s.Verified {
		return ErrAlertsNeedVerifiedEmail
	}
	if problems := CheckAlertSettings(s); len(problems) > 0 {
		for _, k := range []string{"lowBalanceCredits", "expiringReminderDays"} {
			if p, ok := problems[k]; ok {
				return Errorf(CodeInvalid, "%s", p)
			}
		}
	}
	c := s.clone()
	a.record(AlertSettingsChanged{LowBalanceCredits: c.LowBalanceCredits, ExpiringReminderDays: c.ExpiringReminderDays}, now)
	return nil
}

// ReviewAlerts records the alerts the account's state now calls for; the
// repository calls it at the end of every command's decision, so the alert
// is part of the spend, grant, expiry or settings change that caused it:
//
//   - LowBalanceAlerted when available credits are below the threshold and
//     no alert is standing (once per crossing);
//   - BalanceRecovered when an alert is standing and the balance is at or
//     above the threshold again (a threshold turned off clears the alert
//     silently);
//   - ExpiryReminderSent for each monthly grant with credits left that
//     expires within the reminder's days and was not reminded of yet.
func (a *Account) ReviewAlerts(now time.Time) {
	if t := a.s.Alerts.LowBalanceCredits; t != nil {
		bal := a.s.balance(now)
		switch {
		case !a.s.LowBalance && bal < *t:
			a.record(LowBalanceAlerted{Threshold: *t, Available: bal}, now)
		case a.s.LowBalance && bal >= *t:
			a.record(BalanceRecovered{Threshold: *t, Available: bal}, now)
		}
	}
	for _, g := range a.remindersDue(now) {
		a.record(ExpiryReminderSent{GrantID: g.ID, ExpiresAt: g.ExpiresAt.UTC(), Credits: g.Remaining,
			Days: *a.s.Alerts.ExpiringReminderDays}, now)
	}
}

// remindersDue are the monthly grants to remind of at now, in burn order.
func (a *Account) remindersDue(now time.Time) []Grant {
	days := a.s.Alerts.ExpiringReminderDays
	if days == nil {
		return nil
	}
	var due []Grant
	for _, g := range a.s.live(now) {
		if g.Source == SourceMonthly && g.Remaining > 0 && g.ExpiresAt != nil && !g.Reminded &&
			!g.ExpiresAt.AddDate(0, 0, -*days).After(now) {
			due = append(due, g)
		}
	}
	return due
}

// NextReminder returns when the next expiry reminder falls due, or nil when
// none will (no reminder set, or no monthly credits left to remind of).
func (a *Account) NextReminder() *time.Time {
	days := a.s.Alerts.ExpiringReminderDays
	if days == nil {
		return nil
	}
	var next *time.Time
	for _, g := range a.s.Grants {
		if g.Source != SourceMonthly || g.Remaining <= 0 || g.ExpiresAt == nil || g.Reminded {
			continue
		}
		at := g.ExpiresAt.AddDate(0, 0, -*days)
		if next == nil || at.Before(*next) {
			next = &at
		}
	}
	return next
}

// NextWake returns when the account next has work of its own to do: an
// expiry (NextExpiry) or an expiry reminder (NextReminder), whichever is
// sooner; nil for neither. The expiry sweeper visits the account then.
func (a *Account) NextWake() *time.Time {
	next, r := a.NextExpiry(), a.NextReminder()
	if next == nil || (r != nil && r.Before(*next)) {
		return r
	}
	return next
}

// applyAlert applies the alert events to s; it reports false for any other.
func (s *state) applyAlert(e Event) bool {
	switch e := e.(type) {
	case AlertSettingsChanged:
		s.Alerts = AlertSettings{LowBalanceCredits: e.LowBalanceCredits, ExpiringReminderDays: e.ExpiringReminderDays}.clone()
		if e.LowBalanceCredits == nil {
			s.LowBalance = false // no threshold: no standing alert
		}
	case LowBalanceAlerted:
		s.LowBalance = true
	case BalanceRecovered:
		s.LowBalance = false
	case ExpiryReminderSent:
		if i := slices.IndexFunc(s.Grants, func(g Grant) bool { return g.ID == e.GrantID }); i >= 0 {
			s.Grants[i].Reminded = true
		}
	default:
		return false
	}
	return true
}
