package domain

import (
	"reflect"
	"testing"
	"time"
)

// alertTypes are the alert events among a's changes, by type, in order.
func alertTypes(a *Account) []string {
	var out []string
	for _, e := range a.Changes() {
		switch e.(type) {
		case AlertSettingsChanged, LowBalanceAlerted, BalanceRecovered, ExpiryReminderSent:
			out = append(out, e.EventType())
		}
	}
	return out
}

func TestSetAlertsRules(t *testing.T) {
	verified := func() *Account { return given(t, EmailVerified{}) }
	for name, tc := range map[string]struct {
		a    *Account
		s    AlertSettings
		code Code
	}{
		"unverified":          {given(t), AlertSettings{LowBalanceCredits: ptr(int64(10))}, CodeInvalid},
		"negative threshold":  {verified(), AlertSettings{LowBalanceCredits: ptr(int64(-1))}, CodeInvalid},
		"absurd threshold":    {verified(), AlertSettings{LowBalanceCredits: ptr(int64(MaxLowBalanceCredits + 1))}, CodeInvalid},
		"zero reminder days":  {verified(), AlertSettings{ExpiringReminderDays: ptr(0)}, CodeInvalid},
		"31 reminder days":    {verified(), AlertSettings{ExpiringReminderDays: ptr(31)}, CodeInvalid},
		"largest threshold":   {verified(), AlertSettings{LowBalanceCredits: ptr(int64(MaxLowBalanceCredits))}, ""},
		"bounds of the days":  {verified(), AlertSettings{LowBalanceCredits: ptr(int64(0)), ExpiringReminderDays: ptr(30)}, ""},
		"both off (no alert)": {verified(), AlertSettings{}, ""},
	} {
		t.Run(name, func(t *testing.T) {
			err := tc.a.SetAlerts(tc.s, day(1))
			if got := ErrorCode(err); got != tc.code {
				t.Fatalf("SetAlerts: %v, want code %q", err, tc.code)
			}
			if tc.code != "" && len(tc.a.Changes()) != 0 {
				t.Fatalf("a refused SetAlerts recorded %v", tc.a.Changes())
			}
		})
	}
}

func TestSetAlertsRecordsAChangeOnly(t *testing.T) {
	a := given(t, EmailVerified{}, AlertSettingsChanged{LowBalanceCredits: ptr(int64(5))})
	if err := a.SetAlerts(AlertSettings{LowBalanceCredits: ptr(int64(5))}, day(1)); err != nil || len(a.Changes()) != 0 {
		t.Fatalf("same settings: %v, changes %v", err, a.Changes())
	}
	if err := a.SetAlerts(AlertSettings{LowBalanceCredits: ptr(int64(5)), ExpiringReminderDays: ptr(3)}, day(1)); err != nil {
		t.Fatal(err)
	}
	want := []Event{AlertSettingsChanged{LowBalanceCredits: ptr(int64(5)), ExpiringReminderDays: ptr(3)}}
	if !reflect.DeepEqual(a.Changes(), want) {
		t.Fatalf("changes %#v, want %#v", a.Changes(), want)
	}
}

// The low-balance alert: once per crossing, a recovery note when the
// balance is back at or above the threshold, and again after that.
func TestLowBalanceAlertOncePerCrossing(t *testing.T) {
	a := given(t, EmailVerified{}, AlertSettingsChanged{LowBalanceCredits: ptr(int64(3))},
		CreditsGranted{GrantID: "g1", Amount: 4, Source: SourcePromo})
	step := func(what string, do func() error, want ...string) {
		t.Helper()
		if err := do(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		a.ReviewAlerts(day(1))
		got := alertTypes(a)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: alert events %v, want %v", what, got, want)
		}
		a = mustRestore(t, a)
	}
	step("4 -> 3: not below 3", func() error { return a.Spend(OperationListing, "l1", day(1)) })
	step("3 -> 2: below", func() error { return a.Spend(OperationListing, "l2", day(1)) }, "LowBalanceAlerted")
	if !a.LowBalance() {
		t.Fatal("LowBalance false after the alert")
	}
	step("2 -> 1: still below, no second alert", func() error { return a.Spend(OperationListing, "l3", day(1)) })
	step("1 -> 6: recovered", func() error {
		return a.GrantCredits(CreditsGranted{GrantID: "g2", Amount: 5, Source: SourcePurchase}, day(1))
	}, "BalanceRecovered")
	if a.LowBalance() {
		t.Fatal("LowBalance true after the recovery")
	}
	step("6 -> 5", func() error { return a.Spend(OperationListing, "l4", day(1)) })
	step("5 -> 4", func() error { return a.Spend(OperationListing, "l5", day(1)) })
	step("4 -> 3", func() error { return a.Spend(OperationListing, "l6", day(1)) })
	step("3 -> 2: below again", func() error { return a.Spend(OperationListing, "l7", day(1)) }, "LowBalanceAlerted")
	step("threshold off: the alert is cleared, silently", func() error {
		return a.SetAlerts(AlertSettings{}, day(1))
	}, "AlertSettingsChanged")
	if a.LowBalance() {
		t.Fatal("LowBalance true with no threshold")
	}
	step("a threshold above the balance alerts at once", func() error {
		return a.SetAlerts(AlertSettings{LowBalanceCredits: ptr(int64(10))}, day(1))
	}, "AlertSettingsChanged", "LowBalanceAlerted")
}

// An expiry that takes the balance below the threshold alerts in the
// expiry's own decision.
func TestLowBalanceAlertOnExpiry(t *testing.T) {
	a := given(t, EmailVerified{}, AlertSettingsChanged{LowBalanceCredits: ptr(int64(100))},
		CreditsGranted{GrantID: "m1", Amount: 500, Source: SourceMonthly, ExpiresAt: ptr(day(30))},
		CreditsGranted{GrantID: "p1", Amount: 20, Source: SourcePurchase})
	if err := a.ExpireDue(day(31)); err != nil {
		t.Fatal(err)
	}
	a.ReviewAlerts(day(31))
	ch := a.Changes()
	last, ok := ch[len(ch)-1].(LowBalanceAlerted)
	if !ok || last != (LowBalanceAlerted{Threshold: 100, Available: 20}) {
		t.Fatalf("changes %#v, want the expiry then LowBalanceAlerted{100, 20}", ch)
	}
}

// The expiry reminder: N days before monthly credits expire with some
// unspent, once per grant (so once per billing cycle), none when all are
// spent or the credits are not monthly.
func TestExpiryReminder(t *testing.T) {
	a := given(t, EmailVerified{}, AlertSettingsChanged{ExpiringReminderDays: ptr(3)},
		CreditsGranted{GrantID: "m1", Amount: 500, Source: SourceMonthly, ExpiresAt: ptr(day(30))},
		CreditsGranted{GrantID: "promo", Amount: 5, Source: SourcePromo, ExpiresAt: ptr(day(30))})
	if next := a.NextReminder(); next == nil || !next.Equal(day(27)) {
		t.Fatalf("NextReminder %v, want %v", next, day(27))
	}
	if w := a.NextWake(); w == nil || !w.Equal(day(27)) {
		t.Fatalf("NextWake %v, want the reminder's %v", w, day(27))
	}
	a.ReviewAlerts(day(26))
	if len(a.Changes()) != 0 {
		t.Fatalf("4 days before: %v", a.Changes())
	}
	a.ReviewAlerts(day(27).Add(time.Hour))
	want := []Event{ExpiryReminderSent{GrantID: "m1", ExpiresAt: day(30), Credits: 500, Days: 3}}
	if !reflect.DeepEqual(a.Changes(), want) {
		t.Fatalf("changes %#v, want %#v", a.Changes(), want)
	}
	a = mustRestore(t, a)
	a.ReviewAlerts(day(28))
	if len(a.Changes()) != 0 {
		t.Fatalf("second review: %v", a.Changes())
	}
	if w := a.NextWake(); w == nil || !w.Equal(day(30)) {
		t.Fatalf("NextWake after the reminder %v, want the expiry %v", w, day(30))
	}

	spent := given(t, EmailVerified{}, AlertSettingsChanged{ExpiringReminderDays: ptr(3)},
		CreditsGranted{GrantID: "m1", Amount: 1, Source: SourceMonthly, ExpiresAt: ptr(day(30))},
		CreditsSpent{Amount: 1, Operation: OperationListing, Draws: []Draw{{GrantID: "m1", Amount: 1}}})
	spent.ReviewAlerts(day(28))
	if len(spent.Changes()) != 0 || spent.NextReminder() != nil {
		t.Fatalf("all spent: changes %v, next %v", spent.Changes(), spent.NextReminder())
	}
}

func mustSnapshot(t *testing.T, a *Account) []byte {
	t.Helper()
	data, err := a.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// mustRestore is a as stored: its changes become history, through a
// snapshot, as the repository loads it.
func mustRestore(t *testing.T, a *Account) *Account {
	t.Helper()
	b, err := RestoreSnapshot(testAccountID, a.Version()+int64(len(a.Changes())), mustSnapshot(t, a))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
