package main

import (
	"sync"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/testing/accountstest"
)

// spendLimitsAnswer is the JSON of GET and PUT /api/account/spend-limits.
type spendLimitsAnswer struct {
	DailyCredits, MonthlyCredits           *int64
	SpentToday, SpentThisMonth             int64
	DailyResetsAt, MonthlyResetsAt         string
	DailyLimitReached, MonthlyLimitReached bool
}

func TestSpendLimitsRoundTrip(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	s := e.seedVerified("limits@example.com")
	r := e.do(request{method: "GET", path: "/api/account/spend-limits", cookie: s.Cookie})
	expect(t, "GET before any limit", r, 200, "")
	var got spendLimitsAnswer
	r.json(t, &got)
	if got.DailyCredits != nil || got.MonthlyCredits != nil || got.SpentToday != 0 {
		t.Fatalf("limits before any: %s", r.body)
	}
	r = e.do(request{method: "PUT", path: "/api/account/spend-limits", cookie: s.Cookie,
		body: map[string]any{"dailyCredits": 25, "monthlyCredits": nil}})
	expect(t, "PUT", r, 200, "")
	r = e.do(request{method: "GET", path: "/api/account/spend-limits", cookie: s.Cookie})
	r.json(t, &got)
	tomorrow := time.Now().UTC().Truncate(24 * time.Hour).Add(24 * time.Hour).Format(time.RFC3339)
	if got.DailyCredits == nil || *got.DailyCredits != 25 || got.MonthlyCredits != nil || got.DailyResetsAt != tomorrow || got.DailyLimitReached {
		t.Fatalf("limits after PUT: %s (want daily 25 resetting at %s)", r.body, tomorrow)
	}
	if n := e.countEvents(s.ID, "SpendLimitsSet"); n != 1 {
		t.Fatalf("%d SpendLimitsSet events, want 1", n)
	}
}

func TestSpendLimitsBadInput(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	route := e.settingsRoute("/api/account/spend-limits", "limits")
	s := route.verified
	bad := []struct {
		setting badSetting
		message string
	}{
		{badSetting{s.Cookie, `{"dailyCredits": -1, "monthlyCredits": null}`, "dailyCredits"}, "dailyCredits must be 0 or more"},
		{badSetting{s.Cookie, `{"dailyCredits": null, "monthlyCredits": 10000001}`, "monthlyCredits"}, "monthlyCredits must be at most 10000000"},
		{badSetting{s.Cookie, `{"dailyCredits": 1.5}`, "dailyCredits"}, "dailyCredits must be a whole number"},
		{badSetting{s.Cookie, `{"monthlyCredits": "5"}`, "monthlyCredits"}, "monthlyCredits must be a whole number"},
		{badSetting{s.Cookie, `{"dailyCredits": 1e40}`, "dailyCredits"}, "dailyCredits must be a whole number"},
	}
	settings := make([]badSetting, len(bad))
	for i, c := range bad {
		settings[i] = c.setting
	}
	for i, b := range route.expectRefused(settings, "SpendLimitsSet") {
		if c := bad[i]; b.Errors[c.setting.field] != c.message {
			t.Errorf("PUT %s: %s = %q, want %q", c.setting.body, c.setting.field, b.Errors[c.setting.field], c.message)
		}
	}

	u := route.unverified
	r := route.put(u.Cookie, map[string]any{"monthlyCredits": 100})
	expect(t, "unverified", r, 400, "Verify your email address before setting spend limits")
	var b struct{ Errors map[string]string }
	r.json(t, &b)
	if b.Errors["monthlyCredits"] == "" {
		t.Fatalf("unverified: %s, want the monthlyCredits field", r.body)
	}
	if n := e.countEvents(u.ID, "SpendLimitsSet"); n != 0 {
		t.Fatalf("unverified account recorded %d SpendLimitsSet", n)
	}
}

// 16 concurrent /v1 calls against a daily limit of 10, with credits for 20:
// exactly 10 are charged, 6 answer 402 spend_limit_reached with the limit,
// the spend and the reset, and the dashboard then says the limit is reached.
func TestSpendLimitReachedOverV1UnderConcurrency(t *testing.T) {
	t.Parallel()
	e := newDesktopEnv(t, 1000)
	e.grant(20)
	accountstest.Do(t, e.repo(), e.seller.ID, func(a *domain.Account, now time.Time) error { return a.VerifyEmail(now) })
	r := e.do(request{method: "PUT", path: "/api/account/spend-limits", cookie: e.seller.Cookie, body: map[string]any{"dailyCredits": 10}})
	expect(t, "PUT a daily limit of 10", r, 200, "")
	const n = 16
	rs := make([]response, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { rs[i] = e.call("POST", "/v1/vero-checks", map[string]string{"brand": "Nike"}) })
	}
	wg.Wait()
	ok, limited := 0, 0
	tomorrow := time.Now().UTC().Truncate(24 * time.Hour).Add(24 * time.Hour).Format(time.RFC3339)
	for _, r := range rs {
		switch r.status {
		case 200:
			ok++
		case 402:
			var b struct {
				Code, Period, ResetsAt string
				Limit, Spent           *int64
				CreditsRemaining       *int64
			}
			r.json(t, &b)
			if b.Code != CodeSpendLimitReached || b.Period != domain.SpendLimitDaily || b.Limit == nil || *b.Limit != 10 ||
				b.Spent == nil || *b.Spent != 10 || b.ResetsAt != tomorrow || b.CreditsRemaining != nil {
				t.Fatalf("402 body %s", r.body)
			}
			limited++
		default:
			t.Fatalf("answer %d %s", r.status, r.body)
		}
	}
	if ok != 10 || limited != 6 || e.balance() != 10 {
		t.Fatalf("%d charged, %d limited, balance %d; want 10, 6, 10", ok, limited, e.balance())
	}
	r = e.do(request{method: "GET", path: "/api/account/spend-limits", cookie: e.seller.Cookie})
	var got spendLimitsAnswer
	r.json(t, &got)
	if !got.DailyLimitReached || got.SpentToday != 10 || got.SpentThisMonth != 10 {
		t.Fatalf("dashboard after the limit: %s", r.body)
	}
}
