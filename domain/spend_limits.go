package domain

import (
	"fmt"
	"time"
)

// SpendLimitsSet records the seller's caps on metered spending: at most
// DailyCredits per UTC day and MonthlyCredits per billing month. A nil
// limit is no limit. The event states both limits as they stand afterwards.
type SpendLimitsSet struct {
	DailyCredits   *int64 `json:"dailyCredits"`
	MonthlyCredits *int64 `json:"monthlyCredits"`
}

func (SpendLimitsSet) EventType() string { return "SpendLimitsSet" }

// SpendLimitReached records that a metered spend was refused by the Period
// limit of Limit credits, Spent in the period, which ends at ResetsAt. It
// is recorded once per period and limit, at the first refused spend
// (NoteSpendLimitReached), not with each refusal: a refusal writes nothing.
type SpendLimitReached struct {
	Period   string    `json:"period"` // SpendLimitDaily or SpendLimitMonthly
	Limit    int64     `json:"limit"`
	Spent    int64     `json:"spent"`
	ResetsAt time.Time `json:"resetsAt"`
}

func (SpendLimitReached) EventType() string { return "SpendLimitReached" }

// MaxSpendLimit is the largest spend limit accepted: a larger one is a
// mistake, not a cap.
const MaxSpendLimit = 10_000_000

// Spend limit periods.
const (
	SpendLimitDaily   = "daily"
	SpendLimitMonthly = "monthly"
)

// ErrSpendLimitsUnverified refuses limits on an account whose email is not
// verified yet.
var ErrSpendLimitsUnverified = Errorf(CodeInvalid, "Verify your email address before setting spend limits")

// CheckSpendLimit returns what is wrong with a limit of v credits, or "".
func CheckSpendLimit(v *int64) string {
	switch {
	case v == nil:
		return ""
	case *v < 0:
		return "must be 0 or more"
	case *v > MaxSpendLimit:
		return fmt.Sprintf("must be at most %d", MaxSpendLimit)
	}
	return ""
}

// SpendLimitError is the refusal of a spend over a limit: its code is
// CodeSpendLimitReached, and it says which limit, what was spent in its
// period, and when the period ends. Noted says the limit's reach in this
// period is already recorded (SpendLimitReached); when it is not, the
// caller records it after the refusal (NoteSpendLimitReached).
type SpendLimitError struct {
	Period   string // SpendLimitDaily or SpendLimitMonthly
	Limit    int64
	Spent    int64
	ResetsAt time.Time
	Noted    bool
	err      *Error
}

func (e *SpendLimitError) Error() string { return e.err.Error() }
func (e *SpendLimitError) Unwrap() error { return e.err }

// spendLimits is the account's caps and what it spent in their periods. It
// counts spends whether or not a limit is set, so that a limit set during a
// day counts what the day already spent.
type spendLimits struct {
	Daily   *int64 `json:"daily,omitempty"`
	Monthly *int64 `json:"monthly,omitempty"`
	// DayStart is the UTC day DaySpent counts; MonthStart the billing month
	// MonthSpent counts.
	DayStart   time.Time `json:"dayStart,omitzero"`
	DaySpent   int64     `json:"daySpent,omitempty"`
	MonthStart time.Time `json:"monthStart,omitzero"`
	MonthSpent int64     `json:"monthSpent,omitempty"`
	// CycleStart and CycleEnd are the latest paid billing cycle's: the
	// billing month while it lasts.
	CycleStart time.Time `json:"cycleStart,omitzero"`
	CycleEnd   time.Time `json:"cycleEnd,omitzero"`
	// DayNoted is the UTC day, and MonthNoted the billing month, whose
	// limit's reach is recorded (SpendLimitReached); a new limit clears
	// its mark, so reaching it is news again.
	DayNoted   time.Time `json:"dayNoted,omitzero"`
	MonthNoted time.Time `json:"monthNoted,omitzero"`
}

// apply folds the events the limits read; it reports whether e is one only
// they read (SpendLimitsSet, SpendLimitReached).
func (l *spendLimits) apply(e Event, at time.Time) bool {
	switch e := e.(type) {
	case SpendLimitsSet:
		if !equalPtr(l.Daily, e.DailyCredits) {
			l.DayNoted = time.Time{}
		}
		if !equalPtr(l.Monthly, e.MonthlyCredits) {
			l.MonthNoted = time.Time{}
		}
		l.Daily, l.Monthly = clonePtr(e.DailyCredits), clonePtr(e.MonthlyCredits)
		return true
	case SpendLimitReached:
		day, month, _ := l.periods(at)
		if e.Period == SpendLimitMonthly {
			l.MonthNoted = month
		} else {
			l.DayNoted = day
		}
		return true
	case SubscriptionActivated:
		l.CycleStart, l.CycleEnd = e.PeriodStart.UTC(), e.PeriodEnd.UTC()
	case SubscriptionRenewed:
		l.CycleStart, l.CycleEnd = e.PeriodStart.UTC(), e.PeriodEnd.UTC()
	}
	if spent, ok := SpendOf(e); ok {
		day, month, _ := l.periods(at)
		if !l.DayStart.Equal(day) {
			l.DayStart, l.DaySpent = day, 0
		}
		if !l.MonthStart.Equal(month) {
			l.MonthStart, l.MonthSpent = month, 0
		}
		l.DaySpent += spent.Amount
		l.MonthSpent += spent.Amount
	}
	return false
}

// periods returns the start of the UTC day and of the billing month holding
// t, and the month's end. The billing month is the paid cycle holding t, or
// else the calendar month (UTC).
func (l *spendLimits) periods(t time.Time) (day, month, monthEnd time.Time) {
	t = t.UTC()
	day = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	if !l.CycleStart.IsZero() && !t.Before(l.CycleStart) && t.Before(l.CycleEnd) {
		return day, l.CycleStart, l.CycleEnd
	}
	month = time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
	return day, month, month.AddDate(0, 1, 0)
}

// SpendLimits is the account's spend limits at a moment: the caps, what was
// spent in their periods, and when the periods end.
type SpendLimits struct {
	Daily          *int64
	Monthly        *int64
	SpentToday     int64
	SpentThisMonth int64
	DayResetsAt    time.Time
	MonthResetsAt  time.Time
}

// SpendLimits returns the limits and their periods' spending at now.
func (a *Account) SpendLimits(now time.Time) SpendLimits {
	l := &a.s.Limits
	day, month, monthEnd := l.periods(now)
	v := SpendLimits{Daily: clonePtr(l.Daily), Monthly: clonePtr(l.Monthly), DayResetsAt: day.AddDate(0, 0, 1), MonthResetsAt: monthEnd}
	if l.DayStart.Equal(day) {
		v.SpentToday = l.DaySpent
	}
	if l.MonthStart.Equal(month) {
		v.SpentThisMonth = l.MonthSpent
	}
	return v
}

// SetSpendLimits caps spending at daily credits per UTC day and monthly per
// billing month; nil removes a cap. The email must be verified. Limits equal
// to the current ones record nothing.
func (a *Account) SetSpendLimits(daily, monthly *int64, now time.Time) error {
	if msg := CheckSpendLimit(daily); msg != "" {
		return Errorf(CodeInvalid, "The daily limit %s", msg)
	}
	if msg := CheckSpendLimit(monthly); msg != "" {
		return Errorf(CodeInvalid, "The monthly limit %s", msg)
	}
	if !a.s.Verified {
		return ErrSpendLimitsUnverified
	}
	if equalPtr(daily, a.s.Limits.Daily) && equalPtr(monthly, a.s.Limits.Monthly) {
		return nil
	}
	a.record(SpendLimitsSet{DailyCredits: clonePtr(daily), MonthlyCredits: clonePtr(monthly)}, now)
	return nil
}

// checkSpendLimits refuses a spend of amount at now that a limit does not
// allow. When both are reached, the monthly one is named: spending resumes
// only when it resets.
func (a *Account) checkSpendLimits(amount int64, now time.Time) *SpendLimitError {
	l := &a.s.Limits
	v := a.SpendLimits(now)
	day, month, _ := l.periods(now)
	if v.Monthly != nil && v.SpentThisMonth+amount > *v.Monthly {
		return spendLimitReached(SpendLimitMonthly, *v.Monthly, v.SpentThisMonth, v.MonthResetsAt, l.MonthNoted.Equal(month))
	}
	if v.Daily != nil && v.SpentToday+amount > *v.Daily {
		return spendLimitReached(SpendLimitDaily, *v.Daily, v.SpentToday, v.DayResetsAt, l.DayNoted.Equal(day))
	}
	return nil
}

// NoteSpendLimitReached records SpendLimitReached when a spend at now
// would be refused by a limit whose reach in its period is not recorded
// yet, and reports whether it did. The caller runs it, on the locked
// account, after a refused spend whose SpendLimitError was not Noted: the
// refusal itself writes nothing, and of concurrent refusals only the first
// to run this records the event.
func (a *Account) NoteSpendLimitReached(now time.Time) bool {
	e := a.checkSpendLimits(1, now)
	if e == nil || e.Noted {
		return false
	}
	a.record(SpendLimitReached{Period: e.Period, Limit: e.Limit, Spent: e.Spent, ResetsAt: e.ResetsAt.UTC()}, now)
	return true
}

func spendLimitReached(period string, limit, spent int64, resets time.Time, noted bool) *SpendLimitError {
	return &SpendLimitError{Period: period, Limit: limit, Spent: spent, ResetsAt: resets, Noted: noted,
		err: Errorf(CodeSpendLimitReached, "Your %s spend limit of %d credits is reached (%d spent); it resets at %s",
			period, limit, spent, resets.UTC().Format(time.RFC3339))}
}

func clonePtr(v *int64) *int64 {
	if v == nil {
		return nil
	}
	c := *v
	return &c
}

func equalPtr(x, y *int64) bool {
	return (x == nil && y == nil) || (x != nil && y != nil && *x == *y)
}

// DailyReached reports whether the daily limit allows no further spend today.
func (v SpendLimits) DailyReached() bool { return v.Daily != nil && v.SpentToday >= *v.Daily }

// MonthlyReached reports whether the monthly limit allows no further spend
// this billing month.
func (v SpendLimits) MonthlyReached() bool { return v.Monthly != nil && v.SpentThisMonth >= *v.Monthly }
