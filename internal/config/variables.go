package config

import (
	"fmt"
	"strconv"
	"time"
)

// variable is one environment variable the processes read: its name, its
// default as the README's configuration table shows it ("" for none, or
// for a default worked out from other variables in Load), and how it is
// parsed into the configuration. Each variable is declared here once; the
// README's table is checked against this list (TestREADMEListsEveryVariable).
type variable struct {
	Name, Default string
	set           func(c *Config, value string) error
}

// variables are every variable Load reads, in the README's order.
var variables = []variable{
	{"APP_ENV", Production, text(func(c *Config) *string { return &c.Env })},
	{"PORT", "8080", positive(func(c *Config) *int { return &c.Port })},
	{"DATABASE_URL", "", text(func(c *Config) *string { return &c.DatabaseURL })},
	{"READ_DATABASE_URL", "", text(func(c *Config) *string { return &c.ReadDatabaseURL })},
	{"DATA_DIR", ".data", text(func(c *Config) *string { return &c.DataDir })},
	{"APP_BASE_URL", "", text(func(c *Config) *string { return &c.BaseURL })},
	{"APP_SECRET", "", text(func(c *Config) *string { return &c.Secret })},
	{"SESSION_IDLE_TIMEOUT", "168h", period(func(c *Config) *time.Duration { return &c.SessionIdle })},
	{"STAFF_SESSION_IDLE_TIMEOUT", "8h", period(func(c *Config) *time.Duration { return &c.StaffSessionIdle })},
	{"REQUEST_TIMEOUT", "20s", period(func(c *Config) *time.Duration { return &c.RequestTimeout })},
	{"DB_STATEMENT_TIMEOUT", "10s", period(func(c *Config) *time.Duration { return &c.DBStatementTimeout })},
	{"GROUP_COMMIT", "on", onOff(func(c *Config) *bool { return &c.GroupCommit })},
	{"GROUP_COMMIT_LANES", "1", positive(func(c *Config) *int { return &c.GroupCommitLanes })},
	{"GROUP_COMMIT_IN_FLIGHT", "4", positive(func(c *Config) *int { return &c.GroupCommitInFlight })},
	{"GROUP_COMMIT_MAX_BATCH", "64", positive(func(c *Config) *int { return &c.GroupCommitMaxBatch })},
	{"GROUP_COMMIT_PIPELINE_MIN", "", optionalPositive(func(c *Config) *int { return &c.GroupCommitPipelineMin })},
	{"GROUP_COMMIT_LINGER", "0", linger},
	{"SMTP_URL", "", text(func(c *Config) *string { return &c.SMTPURL })},
	{"SMTP_TIMEOUT", "10s", period(func(c *Config) *time.Duration { return &c.SMTPTimeout })},
	{"MAIL_GIVE_UP_AFTER", "24h", period(func(c *Config) *time.Duration { return &c.MailGiveUpAfter })},
	{"PRODUCT_NAME", DefaultProductName, text(func(c *Config) *string { return &c.ProductName })},
	{"MAIL_FROM", "", text(func(c *Config) *string { return &c.MailFrom })},
	{"SUPPORT_EMAIL", "support@localhost", text(func(c *Config) *string { return &c.SupportEmail })},
	{"SUPPORT_PHONE", "", text(func(c *Config) *string { return &c.SupportPhone })},
	{"STRIPE_SECRET_KEY", "", text(func(c *Config) *string { return &c.StripeSecretKey })},
	{"STRIPE_PUBLISHABLE_KEY", "", text(func(c *Config) *string { return &c.StripePublishableKey })},
	{"STRIPE_WEBHOOK_SECRET", "", text(func(c *Config) *string { return &c.StripeWebhookSecret })},
	{"STRIPE_PRICE_ID", "", text(func(c *Config) *string { return &c.StripePriceID })},
	{"STRIPE_TIMEOUT", "5s", period(func(c *Config) *time.Duration { return &c.StripeTimeout })},
	{"STRIPE_MAX_RETRIES", "1", stripeRetries},
	{"STRIPE_API_BASE", "", text(func(c *Config) *string { return &c.StripeAPIBase })},
	{"DOWNLOADS_DIR", "downloads", text(func(c *Config) *string { return &c.DownloadsDir })},
	{"PAGES_DIR", "content/pages", text(func(c *Config) *string { return &c.PagesDir })},
	{"RATE_LIMIT_PER_MINUTE", "20", positive(func(c *Config) *int { return &c.RateLimitPerMinute })},
	{"WEBAPP_DIR", "webapp/dist", text(func(c *Config) *string { return &c.WebappDir })},
	{"TRUSTED_PROXIES", "", func(c *Config, v string) (err error) {
		c.TrustedProxies, err = cidrs(v)
		return err
	}},
	{"METRICS_ADDR", DefaultMetricsAddr, text(func(c *Config) *string { return &c.MetricsAddr })},
	{"MAIL_SENDER_METRICS_ADDR", DefaultMailSenderMetricsAddr, text(func(c *Config) *string { return &c.MailSenderMetricsAddr })},
	{"PROJECTOR_METRICS_ADDR", DefaultProjectorMetricsAddr, text(func(c *Config) *string { return &c.ProjectorMetricsAddr })},
	{"LOG_LEVEL", "info", text(func(c *Config) *string { return &c.LogLevel })},
	{"ACCESS_LOG_FLUSH", "0", accessLogFlush},
	{"MESSAGE_TRANSPORT", TransportSQL, text(func(c *Config) *string { return &c.MessageTransport })},
	{"REDIS_URL", "", text(func(c *Config) *string { return &c.RedisURL })},
	{"IDEMPOTENCY_KEY_TTL", "24h", period(func(c *Config) *time.Duration { return &c.IdempotencyKeyTTL })},
	{"NATS_STREAM_MAX_AGE", "168h", period(func(c *Config) *time.Duration { return &c.NATSStreamMaxAge })},
	{"NATS_STREAM_MAX_BYTES", "1073741824", natsBytes},
	{"NATS_URL", "", text(func(c *Config) *string { return &c.NATSURL })},
}

// optionalPositive sets a positive whole number, or leaves 0 when unset
// (Load or its user works the default out).
func optionalPositive(field func(*Config) *int) func(*Config, string) error {
	set := positive(field)
	return func(c *Config, v string) error {
		if v == "" {
			*field(c) = 0
			return nil
		}
		return set(c, v)
	}
}

// text sets a string as it is.
func text(field func(*Config) *string) func(*Config, string) error {
	return func(c *Config, v string) error { *field(c) = v; return nil }
}

// positive sets a positive whole number.
func positive(field func(*Config) *int) func(*Config, string) error {
	return func(c *Config, v string) error {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return fmt.Errorf("must be a positive whole number, not %q", v)
		}
		*field(c) = n
		return nil
	}
}

// period sets a positive Go duration such as 10s or 24h.
func period(field func(*Config) *time.Duration) func(*Config, string) error {
	return func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("must be a positive duration such as 10s or 24h, not %q", v)
		}
		*field(c) = d
		return nil
	}
}

// onOff sets a switch written on or off.
func onOff(field func(*Config) *bool) func(*Config, string) error {
	return func(c *Config, v string) error {
		if v != "on" && v != "off" {
			return fmt.Errorf("must be on or off, not %q", v)
		}
		*field(c) = v == "on"
		return nil
	}
}

// zeroOrPeriod sets 0, or a positive Go duration that within accepts;
// refused says why one it does not is refused.
func zeroOrPeriod(field func(*Config) *time.Duration, within func(time.Duration) bool, refused string) func(*Config, string) error {
	set := period(field)
	return func(c *Config, v string) error {
		if v == "0" {
			*field(c) = 0
			return nil
		}
		if err := set(c, v); err != nil {
			return err
		}
		if !within(*field(c)) {
			return fmt.Errorf("%s, not %q", refused, v)
		}
		return nil
	}
}

// linger sets a lone command's wait for company: 0 or under a millisecond.
var linger = zeroOrPeriod(func(c *Config) *time.Duration { return &c.GroupCommitLinger },
	func(d time.Duration) bool { return d < time.Millisecond }, "must be under 1ms (a lone request waits that long)")

// accessLogFlush sets how long bin/api gathers access log lines: 0 (each
// written at once) or a positive duration up to a second.
var accessLogFlush = zeroOrPeriod(func(c *Config) *time.Duration { return &c.AccessLogFlush },
	func(d time.Duration) bool { return d <= time.Second }, "must be 0 or at most 1s (the lines a crash loses)")

func stripeRetries(c *Config, v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > 5 {
		return fmt.Errorf("must be a whole number from 0 to 5, not %q", v)
	}
	c.StripeMaxRetries = n
	return nil
}

func natsBytes(c *Config, v string) error {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return fmt.Errorf("must be a positive number of bytes, not %q", v)
	}
	c.NATSStreamMaxBytes = n
	return nil
}
