package webhooks

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"
)

// Policy is the deployment's rule for endpoint URLs. In production
// (Development false) a URL must be https:// and every address it connects
// to must be public; in development http:// and local receivers (such as
// http://127.0.0.1) are allowed.
type Policy struct {
	Development bool
}

// ErrRefusedAddress is a connection refused because the address it would
// reach is not public (loopback, private, link-local, metadata…).
var ErrRefusedAddress = errors.New("webhooks: refused a non-public address")

// MaxURLLength bounds an endpoint's URL.
const MaxURLLength = 2048

// CheckURL returns what is wrong with raw as an endpoint URL, or "". The
// address a name resolves to is judged when it is connected to (Client),
// since DNS may answer differently by then.
func (p Policy) CheckURL(raw string) string {
	if raw == "" {
		return "url is required"
	}
	if len(raw) > MaxURLLength {
		return fmt.Sprintf("url must be at most %d characters", MaxURLLength)
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Host == "" || u.Hostname() == "" || u.Opaque != "" {
		return "url must be an absolute URL, such as https://example.com/webhooks"
	}
	if u.User != nil {
		return "url must not carry a user name or password"
	}
	if u.Fragment != "" {
		return "url must not have a fragment"
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && p.Development:
	default:
		return "url must start with https://"
	}
	if p.Development {
		return ""
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || strings.HasSuffix(host, ".internal") {
		return "url must be a public address"
	}
	if ip, err := netip.ParseAddr(host); err == nil && !Public(ip) {
		return "url must be a public address"
	}
	return ""
}

// Public reports whether ip is a public unicast address: not loopback,
// private (10/8, 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16
// with the cloud metadata address, fe80::/10), shared (100.64/10),
// unspecified, multicast or this-network (0/8).
func Public(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() {
		return false
	}
	for _, p := range refused {
		if p.Contains(ip) {
			return false
		}
	}
	return true
}

// refused are the non-public ranges netip has no predicate for.
var refused = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),      // this network
	netip.MustParsePrefix("100.64.0.0/10"),  // shared address space (carrier NAT)
	netip.MustParsePrefix("192.0.0.0/24"),   // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"),  // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),    // reserved, broadcast
	netip.MustParsePrefix("64:ff9b::/96"),   // NAT64: may reach an IPv4 private address
	netip.MustParsePrefix("64:ff9b:1::/48"), // local-use NAT64
	netip.MustParsePrefix("2002::/16"),      // 6to4: embeds an IPv4 address
}

// Client returns the HTTP client deliveries go through: timeout bounds a
// whole attempt (connection, request and answer), redirects are never
// followed (a 3xx is a failed attempt), no proxy from the environment, and
// in production the dialer refuses a non-public address after DNS
// resolution, at connect time (so a name that resolves to 127.0.0.1, or
// whose answer changes after the URL was checked, reaches nothing).
func (p Policy) Client(timeout time.Duration) *http.Client {
	dialer := &net.Dialer{Timeout: timeout}
	if !p.Development {
		dialer.Control = refuseNonPublic
	}
	tr := &http.Transport{
		Proxy:                 nil,
		DialContext:           dialer.DialContext,
		TLSHandshakeTimeout:   timeout,
		ResponseHeaderTimeout: timeout,
		MaxIdleConnsPerHost:   2,
		IdleConnTimeout:       90 * time.Second,
		ForceAttemptHTTP2:     true,
	}
	return &http.Client{
		Timeout:   timeout,
		Transport: tr,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// refuseNonPublic is the dialer's Control hook: it sees the resolved
// address each connection attempt is about to use.
func refuseNonPublic(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return fmt.Errorf("%w: %s", ErrRefusedAddress, address)
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !Public(ip) {
		return fmt.Errorf("%w: %s", ErrRefusedAddress, host)
	}
	return nil
}
