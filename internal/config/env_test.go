package config

import (
	"strings"
	"testing"
	"time"
)

// envOf is getenv over a map.
func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// production is a complete production environment.
func production() map[string]string {
	return map[string]string{
		"DATABASE_URL":           "postgres://app@db.internal/a2e",
		"APP_SECRET":             "7c0f2d9a1e84b35f6a0c9d27e41b8f35c2a7",
		"SMTP_URL":               "smtp://user:pass@mail.internal:587",
		"STRIPE_SECRET_KEY":      "sk_live_x",
		"STRIPE_PUBLISHABLE_KEY": "pk_live_x",
		"STRIPE_WEBHOOK_SECRET":  "whsec_" + strings.Repeat("w", 32),
		"STRIPE_PRICE_ID":        "price_x",
		"APP_BASE_URL":           "https://app.example.com",
		"SUPPORT_EMAIL":          "support@example.com",
		"MAIL_FROM":              "Sellers <no-reply@example.com>",
	}
}

func TestNoAppEnvMeansProductionAndNamesEveryMissingVariable(t *testing.T) {
	_, err := Load(envOf(nil))
	if err == nil {
		t.Fatal("an empty environment started")
	}
	for _, name := range []string{"DATABASE_URL", "APP_SECRET", "SMTP_URL", "STRIPE_SECRET_KEY",
		"STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET", "STRIPE_PRICE_ID", "APP_BASE_URL", "SUPPORT_EMAIL", "MAIL_FROM"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("the refusal does not name %s:\n%v", name, err)
		}
	}
}

func TestProductionRefusesDevelopmentDefaults(t *testing.T) {
	c, err := Load(envOf(production()))
	if err != nil {
		t.Fatalf("a complete production environment: %v", err)
	}
	if c.Env != Production || c.IsDevelopment() || c.MetricsAddr != DefaultMetricsAddr {
		t.Fatalf("config = %+v", c)
	}
	for key, bad := range map[string]string{
		"APP_SECRET":    DevelopmentSecret,
		"APP_BASE_URL":  "http://app.example.com", // not https
		"SUPPORT_EMAIL": "support@localhost",      // development's default
		"MAIL_FROM":     "Shop <no-reply@127.0.0.1>",
	} {
		env := production()
		env[key] = bad
		if _, err := Load(envOf(env)); err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%s=%q: err = %v", key, bad, err)
		}
	}
	for _, local := range []string{"https://localhost:8080", "https://127.0.0.1", "https://[::1]:8443", "https://app.localhost"} {
		env := production()
		env["APP_BASE_URL"] = local
		if _, err := Load(envOf(env)); err == nil {
			t.Errorf("APP_BASE_URL=%s started in production", local)
		}
	}
}

func TestDevelopmentIsExplicit(t *testing.T) {
	c, err := Load(envOf(map[string]string{"APP_ENV": "development"}))
	if err != nil {
		t.Fatal(err)
	}
	if !c.IsDevelopment() || c.Secret != DevelopmentSecret {
		t.Fatalf("config = %+v", c)
	}
	if _, err := Load(envOf(map[string]string{"APP_ENV": "staging"})); err == nil {
		t.Fatal("APP_ENV=staging accepted")
	}
}

func TestProductNameSupportAndPagesDefaults(t *testing.T) {
	c, err := Load(envOf(map[string]string{"APP_ENV": "development"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.ProductName != "Amazon to eBay Automation" || c.MailFrom != `"Amazon to eBay Automation" <no-reply@localhost>` ||
		c.SupportPhone != "" || c.PagesDir != "content/pages" || c.DownloadsDir != "downloads" {
		t.Fatalf("defaults = %+v", c)
	}
	c, err = Load(envOf(map[string]string{"APP_ENV": "development", "PRODUCT_NAME": "Lister, Inc.", "SUPPORT_PHONE": "+1 555 0100", "PAGES_DIR": "/srv/pages"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.ProductName != "Lister, Inc." || c.MailFrom != `"Lister, Inc." <no-reply@localhost>` || c.SupportPhone != "+1 555 0100" || c.PagesDir != "/srv/pages" {
		t.Fatalf("set = %+v", c)
	}
	c, err = Load(envOf(map[string]string{"APP_ENV": "development", "PRODUCT_NAME": "Lister", "MAIL_FROM": "Shop <shop@example.com>"}))
	if err != nil || c.MailFrom != "Shop <shop@example.com>" {
		t.Fatalf("MAIL_FROM = %q, %v", c.MailFrom, err)
	}
}

func TestGroupCommitSettings(t *testing.T) {
	c, err := Load(envOf(map[string]string{"APP_ENV": "development"}))
	if err != nil {
		t.Fatal(err)
	}
	if !c.GroupCommit || c.GroupCommitLanes != 1 || c.GroupCommitInFlight != 4 || c.GroupCommitMaxBatch != 64 || c.GroupCommitPipelineMin != 0 || c.GroupCommitLinger != 0 {
		t.Fatalf("defaults = %v %d %d %v", c.GroupCommit, c.GroupCommitLanes, c.GroupCommitMaxBatch, c.GroupCommitLinger)
	}
	c, err = Load(envOf(map[string]string{"APP_ENV": "development", "GROUP_COMMIT": "off", "GROUP_COMMIT_LANES": "3",
		"GROUP_COMMIT_IN_FLIGHT": "2", "GROUP_COMMIT_MAX_BATCH": "16", "GROUP_COMMIT_PIPELINE_MIN": "3", "GROUP_COMMIT_LINGER": "200us"}))
	if err != nil || c.GroupCommit || c.GroupCommitLanes != 3 || c.GroupCommitInFlight != 2 || c.GroupCommitMaxBatch != 16 || c.GroupCommitPipelineMin != 3 || c.GroupCommitLinger != 200*time.Microsecond {
		t.Fatalf("set = %+v, %v", c, err)
	}
	for key, bad := range map[string]string{"GROUP_COMMIT": "yes", "GROUP_COMMIT_LANES": "0", "GROUP_COMMIT_IN_FLIGHT": "9", "GROUP_COMMIT_MAX_BATCH": "-1", "GROUP_COMMIT_PIPELINE_MIN": "0", "GROUP_COMMIT_LINGER": "2ms"} {
		if _, err := Load(envOf(map[string]string{"APP_ENV": "development", key: bad})); err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%s=%s: %v", key, bad, err)
		}
	}
}

func TestAccessLogFlush(t *testing.T) {
	c, err := Load(envOf(map[string]string{"APP_ENV": "development"}))
	if err != nil || c.AccessLogFlush != 0 {
		t.Fatalf("default = %v, %v", c.AccessLogFlush, err)
	}
	for v, want := range map[string]time.Duration{"0": 0, "250ms": 250 * time.Millisecond, "1s": time.Second} {
		if c, err := Load(envOf(map[string]string{"APP_ENV": "development", "ACCESS_LOG_FLUSH": v})); err != nil || c.AccessLogFlush != want {
			t.Errorf("ACCESS_LOG_FLUSH=%s: %v, %v", v, c.AccessLogFlush, err)
		}
	}
	for _, bad := range []string{"-1ms", "2s", "soon"} {
		if _, err := Load(envOf(map[string]string{"APP_ENV": "development", "ACCESS_LOG_FLUSH": bad})); err == nil || !strings.Contains(err.Error(), "ACCESS_LOG_FLUSH") {
			t.Errorf("ACCESS_LOG_FLUSH=%s: %v", bad, err)
		}
	}
}
