package main

import (
	"encoding/json"
	"net/http"
	"testing"
)

// GET/PUT /api/account/alerts on the real router and database (issue 33):
// each bad input is a 400 naming its field and saves nothing; good settings
// are read back; the profile carries lowBalance.
func TestAccountAlertsAPI(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	route := e.settingsRoute("/api/account/alerts", "alerts")
	s, un, put := route.verified, route.unverified, route.put
	get := func() (b alertsBody) { route.get(&b); return b }
	if b := get(); b.LowBalanceCredits != nil || b.ExpiringReminderDays != nil {
		t.Fatalf("new account's alerts %+v, want both null", b)
	}

	route.expectRefused([]badSetting{
		{s.Cookie, `{"lowBalanceCredits": -1, "expiringReminderDays": null}`, "lowBalanceCredits"},
		{s.Cookie, `{"lowBalanceCredits": 10000001, "expiringReminderDays": null}`, "lowBalanceCredits"},
		{s.Cookie, `{"lowBalanceCredits": 99999999999999999999999, "expiringReminderDays": null}`, "lowBalanceCredits"},
		{s.Cookie, `{"lowBalanceCredits": 12.5, "expiringReminderDays": null}`, "lowBalanceCredits"},
		{s.Cookie, `{"lowBalanceCredits": "50", "expiringReminderDays": null}`, "lowBalanceCredits"},
		{s.Cookie, `{"lowBalanceCredits": null, "expiringReminderDays": 0}`, "expiringReminderDays"},
		{s.Cookie, `{"lowBalanceCredits": null, "expiringReminderDays": 31}`, "expiringReminderDays"},
		{s.Cookie, `{"lowBalanceCredits": null, "expiringReminderDays": 2.5}`, "expiringReminderDays"},
		{s.Cookie, `{"lowBalance": 5}`, "lowBalance"},
		{un.Cookie, `{"lowBalanceCredits": 50, "expiringReminderDays": null}`, "lowBalanceCredits"},
	}, "AlertSettingsChanged")

	r := put(s.Cookie, map[string]any{"lowBalanceCredits": 50, "expiringReminderDays": 3})
	if r.status != http.StatusOK {
		t.Fatalf("PUT = %d %s", r.status, r.body)
	}
	if b := get(); b.LowBalanceCredits == nil || *b.LowBalanceCredits != 50 || b.ExpiringReminderDays == nil || *b.ExpiringReminderDays != 3 {
		t.Fatalf("alerts read back %+v", b)
	}
	// The seeded account has no credits: 0 is below 50, so the alert
	// stands at once and the profile says so.
	pr := e.do(request{method: "GET", path: "/api/user/profile", cookie: s.Cookie})
	var p map[string]json.RawMessage
	pr.json(t, &p)
	if string(p["lowBalance"]) != "true" {
		t.Fatalf("profile %s, want lowBalance true", pr.body)
	}
	if r := put(s.Cookie, map[string]any{"lowBalanceCredits": nil, "expiringReminderDays": nil}); r.status != http.StatusOK {
		t.Fatalf("PUT nulls = %d %s", r.status, r.body)
	}
	pr = e.do(request{method: "GET", path: "/api/user/profile", cookie: s.Cookie})
	pr.json(t, &p)
	if string(p["lowBalance"]) != "false" {
		t.Fatalf("profile %s, want lowBalance false with the alert off", pr.body)
	}
	if r := e.do(request{method: "GET", path: "/api/account/alerts"}); r.status != http.StatusUnauthorized {
		t.Fatalf("without a session = %d", r.status)
	}
}
