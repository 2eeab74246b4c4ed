// Package config reads the environment into one typed configuration. Every
// variable it reads is declared once in variables.go (name, default, parse)
// and listed in the README's configuration table, which a test checks.
package config

import (
	"fmt"
	"net/mail"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

// Environments.
const (
	Development = "development"
	Production  = "production"
)

// DefaultProductName is PRODUCT_NAME when unset: the spec's name.
const DefaultProductName = "Amazon to eBay Automation"

// DevelopmentSecret is the default APP_SECRET outside production; production
// refuses to start with it.
const DevelopmentSecret = "development-only-secret-do-not-use-in-production"

// Config is the process configuration.
type Config struct {
	Env                    string        // APP_ENV: production (the default) | development
	Port                   int           // PORT
	ProductName            string        // PRODUCT_NAME: the name in emails, pages and the webapp
	DatabaseURL            string        // DATABASE_URL; empty: a private PostgreSQL under DataDir
	ReadDatabaseURL        string        // READ_DATABASE_URL; a standby for the dashboard's reads; empty: the primary
	DataDir                string        // DATA_DIR: where the private PostgreSQL and other local state live
	BaseURL                string        // APP_BASE_URL: the public address, used in emails
	Secret                 string        // APP_SECRET: key material for encrypting API keys
	SMTPURL                string        // SMTP_URL; empty: emails are captured in the dev mailbox and logged
	MailFrom               string        // MAIL_FROM; default: ProductName <no-reply@localhost>
	SMTPTimeout            time.Duration // SMTP_TIMEOUT: bound of each step of one SMTP send
	MailGiveUpAfter        time.Duration // MAIL_GIVE_UP_AFTER: how long a mail is retried before it is marked failed
	StripeSecretKey        string        // STRIPE_SECRET_KEY
	StripePublishableKey   string        // STRIPE_PUBLISHABLE_KEY
	StripeWebhookSecret    string        // STRIPE_WEBHOOK_SECRET
	StripePriceID          string        // STRIPE_PRICE_ID
	StripeAPIBase          string        // STRIPE_API_BASE: override of Stripe's API address (stripe-mock in tests)
	StripeTimeout          time.Duration // STRIPE_TIMEOUT: bound of one HTTP attempt to Stripe
	StripeMaxRetries       int           // STRIPE_MAX_RETRIES: retries of a failed attempt, same idempotency key
	DownloadsDir           string        // DOWNLOADS_DIR: the desktop installer, <name>-Setup-<version>.exe
	PagesDir               string        // PAGES_DIR: contact.md, privacy.md and terms.md, read at each request
	SupportEmail           string        // SUPPORT_EMAIL
	SupportPhone           string        // SUPPORT_PHONE; empty: no phone support is shown
	RateLimitPerMinute     int           // RATE_LIMIT_PER_MINUTE
	WebappDir              string        // WEBAPP_DIR: the built webapp served at /
	LogLevel               string        // LOG_LEVEL: debug | info | warn | error
	AccessLogFlush         time.Duration // ACCESS_LOG_FLUSH: how long bin/api gathers access log lines before one write (0: each at once)
	MessageTransport       string        // MESSAGE_TRANSPORT: sql | nats (how events reach the projectors)
	NATSURL                string        // NATS_URL: the NATS JetStream server(s); set only when MessageTransport is nats
	NATSStreamMaxAge       time.Duration // NATS_STREAM_MAX_AGE: JetStream stream message age limit
	NATSStreamMaxBytes     int64         // NATS_STREAM_MAX_BYTES: JetStream stream size limit
	IdempotencyKeyTTL      time.Duration // IDEMPOTENCY_KEY_TTL: how long a desktop Idempotency-Key is kept
	RedisURL               string        // REDIS_URL: where limits and throttles are shared; empty: in this process
	MetricsAddr            string        // METRICS_ADDR: where bin/api serves /metrics, apart from the public port
	MailSenderMetricsAddr  string        // MAIL_SENDER_METRICS_ADDR: the same for `bin/api mail-sender`
	ProjectorMetricsAddr   string        // PROJECTOR_METRICS_ADDR: the same for bin/projector
	RequestTimeout         time.Duration // REQUEST_TIMEOUT: deadline of one API request's work
	SessionIdle            time.Duration // SESSION_IDLE_TIMEOUT: a seller's session ends after this long without a request
	StaffSessionIdle       time.Duration // STAFF_SESSION_IDLE_TIMEOUT: the same for staff
	DBStatementTimeout     time.Duration // DB_STATEMENT_TIMEOUT: PostgreSQL statement_timeout of the API's connections
	GroupCommit            bool          // GROUP_COMMIT: on | off; the desktop API's spends share transactions
	GroupCommitLanes       int           // GROUP_COMMIT_LANES: queues of spends per API process, each forming its own batches
	GroupCommitInFlight    int           // GROUP_COMMIT_IN_FLIGHT: group commits a lane may have running at once
	GroupCommitMaxBatch    int           // GROUP_COMMIT_MAX_BATCH: commands in one group commit at most
	GroupCommitPipelineMin int           // GROUP_COMMIT_PIPELINE_MIN: commands a batch needs to start beside a running one (0: the batcher's default)
	GroupCommitLinger      time.Duration // GROUP_COMMIT_LINGER: wait of a lone command for company (0: none)

	// TrustedProxies (TRUSTED_PROXIES) are the CIDR prefixes of the reverse
	// proxies whose X-Forwarded-For names the client; empty: the TCP peer is
	// the client.
	TrustedProxies []string
}

// IsDevelopment reports whether development-only features are on.
func (c Config) IsDevelopment() bool { return c.Env == Development }

// DefaultMetricsAddr is METRICS_ADDR when unset: loopback only, so the
// public port never shows process internals.
const DefaultMetricsAddr = "127.0.0.1:9091"

// The other processes' metrics addresses when unset: beside an API on the
// same machine.
const (
	DefaultMailSenderMetricsAddr = "127.0.0.1:9092"
	DefaultProjectorMetricsAddr  = "127.0.0.1:9090"
)

// Load reads the configuration from getenv and validates it. Without
// APP_ENV the rules are production's: a deployment that forgets a variable
// refuses to start instead of running with development's open defaults.
func Load(getenv func(string) string) (Config, error) {
	c, err := read(getenv)
	if err != nil {
		return Config{}, err
	}
	c.derive()
	if err := c.check(); err != nil {
		return Config{}, err
	}
	if err := c.applyEnv(); err != nil {
		return Config{}, err
	}
	return c, nil
}

// read parses each declared variable (variables.go), its default when unset.
func read(getenv func(string) string) (Config, error) {
	var c Config
	for _, v := range variables {
		value := strings.TrimSpace(getenv(v.Name))
		if value == "" {
			value = v.Default
		}
		if err := v.set(&c, value); err != nil {
			return Config{}, fmt.Errorf("%s %w", v.Name, err)
		}
	}
	return c, nil
}

// derive fills the defaults worked out from other variables. The display
// name is quoted as RFC 5322 needs, whatever PRODUCT_NAME holds.
func (c *Config) derive() {
	if c.MailFrom == "" {
		c.MailFrom = (&mail.Address{Name: c.ProductName, Address: "no-reply@localhost"}).String()
	}
	if c.BaseURL == "" {
		c.BaseURL = fmt.Sprintf("http://localhost:%d", c.Port)
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
}

// check validates the variables that depend on one another.
func (c *Config) check() error {
	if c.GroupCommitLanes*c.GroupCommitInFlight > 8 {
		// Each running group commit holds one of the API pool's connections.
		return fmt.Errorf("GROUP_COMMIT_LANES × GROUP_COMMIT_IN_FLIGHT must be at most 8 (each holds a database connection), not %d × %d",
			c.GroupCommitLanes, c.GroupCommitInFlight)
	}
	var err error
	if c.MessageTransport, c.NATSURL, err = transport(c.MessageTransport, c.NATSURL); err != nil {
		return err
	}
	if c.RedisURL != "" && !strings.HasPrefix(c.RedisURL, "redis://") && !strings.HasPrefix(c.RedisURL, "rediss://") {
		return fmt.Errorf("REDIS_URL must be a redis:// or rediss:// address, not %q", c.RedisURL)
	}
	return nil
}

// applyEnv applies APP_ENV's rules: development's secret, production's
// required variables.
func (c *Config) applyEnv() error {
	switch c.Env {
	case Development:
		if c.Secret == "" {
			c.Secret = DevelopmentSecret
		}
		return nil
	case Production:
		return c.validateProduction()
	default:
		return fmt.Errorf("APP_ENV must be %q or %q, not %q", Production, Development, c.Env)
	}
}

// Message transports (MESSAGE_TRANSPORT).
const (
	TransportSQL  = "sql"
	TransportNATS = "nats"
)

// DefaultNATSURL is NATS_URL when MESSAGE_TRANSPORT is nats and NATS_URL is unset.
const DefaultNATSURL = "nats://127.0.0.1:4222"

// transport checks MESSAGE_TRANSPORT and NATS_URL. NATS_URL is read (and
// defaulted) only for nats; with sql it is ignored, so switching back to sql
// needs no other change.
func transport(kind, natsURL string) (string, string, error) {
	switch kind {
	case TransportSQL:
		return kind, "", nil
	case TransportNATS:
		if natsURL == "" {
			natsURL = DefaultNATSURL
		}
		for _, u := range strings.Split(natsURL, ",") {
			p, err := url.Parse(strings.TrimSpace(u))
			if err != nil || p.Host == "" || (p.Scheme != "nats" && p.Scheme != "tls") {
				return "", "", fmt.Errorf("NATS_URL: %q is not a nats:// or tls:// address such as %s", u, DefaultNATSURL)
			}
		}
		return kind, natsURL, nil
	default:
		return "", "", fmt.Errorf("MESSAGE_TRANSPORT must be %q or %q, not %q", TransportSQL, TransportNATS, kind)
	}
}

// cidrs splits a comma-separated list of CIDR prefixes and checks each.
func cidrs(s string) ([]string, error) {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if _, err := netip.ParsePrefix(p); err != nil {
			return nil, fmt.Errorf("has %q, which is not a CIDR prefix such as 10.0.0.0/8", p)
		}
		out = append(out, p)
	}
	return out, nil
}
