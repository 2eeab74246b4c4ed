package config

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"
)

// Issue 25, item 8: each misconfiguration found from outside is refused,
// and the refusal names the variable.
func TestProductionRefusesOpenMisconfigurations(t *testing.T) {
	for _, tc := range []struct{ key, value string }{
		{"APP_BASE_URL", "https://localhost."},
		{"APP_BASE_URL", "https://LOCALHOST"},
		{"APP_BASE_URL", "https://127.1"},
		{"APP_BASE_URL", "https://2130706433"},
		{"APP_BASE_URL", "https://0x7f.0.0.1"},
		{"APP_BASE_URL", "https://0177.0.0.1:8443"},
		{"APP_BASE_URL", "https://0"},
		{"APP_BASE_URL", "https://[::ffff:127.0.0.1]"},
		{"SUPPORT_EMAIL", "support@[127.0.0.1]"},
		{"SUPPORT_EMAIL", "support@[IPv6:::1]"},
		{"SUPPORT_EMAIL", "support@localhost."},
		{"MAIL_FROM", "Shop <no-reply@localhost.>"},
		{"STRIPE_WEBHOOK_SECRET", "x"},
		{"STRIPE_WEBHOOK_SECRET", "whsec_x"},
		{"STRIPE_SECRET_KEY", "pk_live_x"},
		{"STRIPE_PUBLISHABLE_KEY", "sk_live_x"},
		{"TRUSTED_PROXIES", "0.0.0.0/0"},
		{"TRUSTED_PROXIES", "10.0.0.0/8,::/0"},
		{"TRUSTED_PROXIES", "128.0.0.0/1"},
		{"SMTP_URL", "smtp://user:pass@mail.example.com:587?tls=none"},
		{"SMTP_URL", "smtp://127.0.0.1:25?tls=none"},
		{"METRICS_ADDR", ":9091"},
		{"METRICS_ADDR", "0.0.0.0:9091"},
		{"METRICS_ADDR", "[::]:9091"},
		{"METRICS_ADDR", "203.0.113.7:9091"},
		{"METRICS_ADDR", "metrics.example.com:9091"},
		{"PROJECTOR_METRICS_ADDR", "0.0.0.0:9090"},
		{"MAIL_SENDER_METRICS_ADDR", ":9092"},
	} {
		env := production()
		env[tc.key] = tc.value
		_, err := Load(envOf(env))
		if err == nil || !strings.Contains(err.Error(), tc.key) {
			t.Errorf("%s=%s: err = %v", tc.key, tc.value, err)
		}
	}
}

// The checks refuse the open settings only: the ones a real deployment
// uses still start.
func TestProductionAcceptsSafeSettings(t *testing.T) {
	for _, tc := range []struct{ key, value string }{
		{"APP_BASE_URL", "https://app.example.com."},
		{"APP_BASE_URL", "https://203.0.113.7"},
		{"APP_BASE_URL", "https://1password.example"},
		{"STRIPE_SECRET_KEY", "rk_live_x"},
		{"TRUSTED_PROXIES", "10.0.0.0/8,173.245.48.0/20,2400:cb00::/32"},
		{"SMTP_URL", "smtp://relay.internal:25?tls=opportunistic"},
		{"SMTP_URL", "smtps://user:pass@mail.example.com"},
		{"METRICS_ADDR", "off"},
		{"METRICS_ADDR", "localhost:9091"},
		{"METRICS_ADDR", "10.1.2.3:9091"},
		{"METRICS_ADDR", "[::1]:9091"},
		{"PROJECTOR_METRICS_ADDR", "off"},
		{"MAIL_SENDER_METRICS_ADDR", "10.1.2.3:9092"},
	} {
		env := production()
		env[tc.key] = tc.value
		if _, err := Load(envOf(env)); err != nil {
			t.Errorf("%s=%s: %v", tc.key, tc.value, err)
		}
	}
}

func TestLooseIPv4(t *testing.T) {
	for in, want := range map[string]string{
		"127.1": "127.0.0.1", "2130706433": "127.0.0.1", "0x7f.1": "127.0.0.1", "0177.0.0.1": "127.0.0.1",
		"10.1.2": "10.1.0.2", "0": "0.0.0.0",
	} {
		if ip, ok := looseIPv4(in); !ok || ip.String() != want {
			t.Errorf("looseIPv4(%q) = %v, %v; want %s", in, ip, ok, want)
		}
	}
	for _, in := range []string{"256.1", "1.2.3.4.5", "example.com", "1.2.3.256", "", "1..2", "1password"} {
		if ip, ok := looseIPv4(in); ok {
			t.Errorf("looseIPv4(%q) = %v", in, ip)
		}
	}
}

// Issue 31, item 14: a long but predictable APP_SECRET is refused with a
// clear message; the values a generator gives are accepted, every time.
func TestProductionRefusesLowEntropySecret(t *testing.T) {
	for _, weak := range []string{
		strings.Repeat("a", 32),
		strings.Repeat("a", 64),
		strings.Repeat("ab", 20),
		"abcdefghijklmnopqrstuvwxyz012345",
		strings.Repeat("0123456789", 4),
		strings.Repeat("password", 4),
		strings.Repeat("secret12", 5),
	} {
		env := production()
		env["APP_SECRET"] = weak
		_, err := Load(envOf(env))
		if err == nil || !strings.Contains(err.Error(), "APP_SECRET") || !strings.Contains(err.Error(), "too predictable") {
			t.Errorf("APP_SECRET=%q: err = %v", weak, err)
		}
	}
	for i := 0; i < 2000; i++ {
		b := make([]byte, 16+i%17)
		if _, err := rand.Read(b); err != nil {
			t.Fatal(err)
		}
		for _, strong := range []string{hex.EncodeToString(b), base64.RawURLEncoding.EncodeToString(b)} {
			if len(strong) < 32 {
				continue
			}
			if msg := secretProblem(strong); msg != "" {
				t.Fatalf("a generated secret %q (%.0f bits) refused: %s", strong, secretBits(strong), msg)
			}
		}
	}
}
