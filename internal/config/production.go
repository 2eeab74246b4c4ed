package config

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// validateProduction refuses development defaults, missing secrets and the
// settings that would open the service up (issue 25, item 8). Every refusal
// names its variable.
func (c Config) validateProduction() error {
	var errs []error
	if c.DatabaseURL == "" {
		errs = append(errs, errors.New("DATABASE_URL is required in production"))
	}
	if msg := secretProblem(c.Secret); msg != "" {
		errs = append(errs, errors.New(msg))
	}
	if c.SMTPURL == "" {
		errs = append(errs, errors.New("SMTP_URL is required in production"))
	} else if u, err := url.Parse(c.SMTPURL); err == nil && u.Query().Get("tls") == "none" {
		errs = append(errs, errors.New("SMTP_URL: tls=none sends the SMTP password and every mail in clear; production needs tls=mandatory (the default) or, for a relay without STARTTLS, tls=opportunistic"))
	}
	errs = append(errs, c.stripeKeys()...)
	if u, err := url.Parse(c.BaseURL); err != nil || u.Scheme != "https" || u.Host == "" || isLocalHost(u.Hostname()) {
		errs = append(errs, errors.New("APP_BASE_URL must be the public https:// address in production"))
	}
	// Sellers see and answer these addresses: development's @localhost
	// defaults would send them nowhere.
	if localAddress(c.SupportEmail) {
		errs = append(errs, errors.New("SUPPORT_EMAIL must be set to the address sellers write to in production"))
	}
	if localAddress(c.MailFrom) {
		errs = append(errs, errors.New("MAIL_FROM must be set to an address on your mail domain in production"))
	}
	for _, p := range c.TrustedProxies {
		if pp := netip.MustParsePrefix(p); pp.Bits() < minTrustedBits(pp) {
			errs = append(errs, fmt.Errorf("TRUSTED_PROXIES: %s would let strangers choose the client address sign-in throttling counts; list your proxies' own prefixes (/%d or narrower)", p, minTrustedBits(pp)))
		}
	}
	for _, m := range [][3]string{
		{"METRICS_ADDR", c.MetricsAddr, DefaultMetricsAddr},
		{"MAIL_SENDER_METRICS_ADDR", c.MailSenderMetricsAddr, DefaultMailSenderMetricsAddr},
		{"PROJECTOR_METRICS_ADDR", c.ProjectorMetricsAddr, DefaultProjectorMetricsAddr},
	} {
		if !privateListenAddr(m[1]) {
			errs = append(errs, fmt.Errorf("%s %q would serve /metrics and Go's profiles (/debug/pprof) to anyone; use a loopback or private address such as %s, or off", m[0], m[1], m[2]))
		}
	}
	return errors.Join(errs...)
}

// stripeKeys refuses missing Stripe settings and keys of the wrong kind: a
// publishable key (pk_) where the secret one belongs, or a webhook secret
// that is not one Stripe made (whsec_ and its random part), which anyone
// could guess and so sign events.
func (c Config) stripeKeys() []error {
	var errs []error
	for _, kv := range [][2]string{
		{"STRIPE_SECRET_KEY", c.StripeSecretKey}, {"STRIPE_PUBLISHABLE_KEY", c.StripePublishableKey},
		{"STRIPE_WEBHOOK_SECRET", c.StripeWebhookSecret}, {"STRIPE_PRICE_ID", c.StripePriceID},
	} {
		if kv[1] == "" {
			errs = append(errs, fmt.Errorf("%s is required in production", kv[0]))
		}
	}
	if k := c.StripeSecretKey; k != "" && !strings.HasPrefix(k, "sk_") && !strings.HasPrefix(k, "rk_") {
		errs = append(errs, errors.New("STRIPE_SECRET_KEY must be a secret key (sk_…) or a restricted key (rk_…) from the Stripe dashboard"))
	}
	if k := c.StripePublishableKey; k != "" && !strings.HasPrefix(k, "pk_") {
		errs = append(errs, errors.New("STRIPE_PUBLISHABLE_KEY must be a publishable key (pk_…): it is sent to every browser"))
	}
	if k := c.StripeWebhookSecret; k != "" && (!strings.HasPrefix(k, "whsec_") || len(k) < len("whsec_")+minWebhookSecretChars) {
		errs = append(errs, fmt.Errorf("STRIPE_WEBHOOK_SECRET must be the endpoint's signing secret from Stripe (whsec_ and at least %d characters)", minWebhookSecretChars))
	}
	return errs
}

// minWebhookSecretChars is the shortest random part of a webhook secret
// accepted; Stripe's have 32 or more.
const minWebhookSecretChars = 24

// minTrustedBits is the widest TRUSTED_PROXIES prefix production accepts:
// a /8 (IPv4) or /16 (IPv6) still holds a provider's proxies; anything wider
// lets strangers choose the address sign-in throttling counts.
func minTrustedBits(p netip.Prefix) int {
	if p.Addr().Is4() {
		return 8
	}
	return 16
}

// privateListenAddr reports whether METRICS_ADDR keeps the profiles off
// the Internet: off, or a loopback, private or link-local address (a
// container's scraper reaches a private one). An empty host or 0.0.0.0
// listens everywhere; a name could resolve anywhere.
func privateListenAddr(addr string) bool {
	if addr == "off" {
		return true
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(strings.TrimRight(host, "."), "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && (ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast())
}

// localAddress reports whether an address ("a@b" or "Name <a@b>") is
// missing or on this machine. An address literal (a@[127.0.0.1]) counts
// as local whatever it names: mail to sellers goes to domains.
func localAddress(addr string) bool {
	at := strings.LastIndexByte(addr, '@')
	if at < 0 {
		return true
	}
	domain := strings.TrimRight(strings.TrimSpace(addr[at+1:]), ">")
	if strings.HasPrefix(domain, "[") {
		return true
	}
	return isLocalHost(domain)
}

// isLocalHost reports whether host names this machine, in any of the
// spellings a resolver accepts: a trailing dot (localhost.), any case, and
// the short and numeric IPv4 forms inet_aton reads (127.1, 2130706433,
// 0x7f.0.0.1).
func isLocalHost(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || host == "" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		var ok bool
		if ip, ok = looseIPv4(host); !ok {
			return false
		}
	}
	return ip.IsLoopback() || ip.IsUnspecified()
}

// looseIPv4 parses the IPv4 forms inet_aton accepts besides the dotted
// quad: one to four parts, each decimal, octal (0…) or hex (0x…), the last
// filling the remaining bytes.
func looseIPv4(s string) (netip.Addr, bool) {
	parts := strings.Split(s, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var v uint64
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 0, 32)
		if err != nil || p == "" || p[0] == '+' {
			return netip.Addr{}, false
		}
		last := i == len(parts)-1
		if !last {
			if n > 255 {
				return netip.Addr{}, false
			}
			v = v<<8 | n
			continue
		}
		rest := uint(4 - i) // bytes the last part fills
		if n >= 1<<(8*rest) {
			return netip.Addr{}, false
		}
		v = v<<(8*rest) | n
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}
