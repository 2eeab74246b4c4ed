package webhooks

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// In production the client refuses every non-public address after DNS
// resolution, at connect time: loopback, 10/8, the metadata address, a
// name that resolves to 127.0.0.1. The receivers below are real and
// listening, so a refusal is the dialer's, not a dead port's.
func TestProductionRefusesNonPublicAddressesAtConnectTime(t *testing.T) {
	var hits atomic.Int64
	tls := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer tls.Close()
	port := tls.URL[strings.LastIndex(tls.URL, ":")+1:]
	client := Policy{}.Client(2 * time.Second)
	client.Transport.(*http.Transport).TLSClientConfig = tls.Client().Transport.(*http.Transport).TLSClientConfig
	for _, u := range []string{
		"https://127.0.0.1:" + port + "/hook",
		"https://localhost:" + port + "/hook", // a DNS name resolving to 127.0.0.1
		"https://[::1]:" + port + "/hook",
		"https://10.0.0.1/hook",
		"https://169.254.169.254/latest/meta-data",
		"https://192.168.1.1/hook",
		"https://100.64.0.1/hook",
		"https://0.0.0.0:" + port + "/hook",
	} {
		resp, err := client.Post(u, "application/json", strings.NewReader("{}"))
		if err == nil {
			resp.Body.Close()
			t.Fatalf("%s: answered %d, want a refusal", u, resp.StatusCode)
		}
		if !errors.Is(err, ErrRefusedAddress) {
			t.Fatalf("%s: %v, want ErrRefusedAddress", u, err)
		}
	}
	if hits.Load() != 0 {
		t.Fatalf("the local receiver was reached %d times", hits.Load())
	}
	// The same receiver is reachable in development.
	dev := Policy{Development: true}.Client(2 * time.Second)
	dev.Transport.(*http.Transport).TLSClientConfig = tls.Client().Transport.(*http.Transport).TLSClientConfig
	resp, err := dev.Post(tls.URL, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if hits.Load() != 1 {
		t.Fatal("development did not reach the local receiver")
	}
}

// A redirect is never followed, in either mode: the 3xx is the answer (a
// failed attempt) and its target is not asked.
func TestRedirectsAreNotFollowed(t *testing.T) {
	var reached atomic.Int64
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { reached.Add(1) }))
	defer target.Close()
	redirect := httptest.NewServer(http.RedirectHandler(target.URL, http.StatusTemporaryRedirect))
	defer redirect.Close()
	resp, err := Policy{Development: true}.Client(2*time.Second).Post(redirect.URL, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTemporaryRedirect || reached.Load() != 0 {
		t.Fatalf("status %d, target reached %d times", resp.StatusCode, reached.Load())
	}
}

func TestCheckURL(t *testing.T) {
	prod, dev := Policy{}, Policy{Development: true}
	for _, c := range []struct {
		p   Policy
		url string
		ok  bool
	}{
		{prod, "https://hooks.example.com/a2e", true},
		{prod, "http://hooks.example.com/a2e", false},
		{prod, "https://127.0.0.1/x", false},
		{prod, "https://10.1.2.3/x", false},
		{prod, "https://169.254.169.254/x", false},
		{prod, "https://localhost/x", false},
		{prod, "https://user:pw@hooks.example.com/", false},
		{prod, "not a url", false},
		{prod, "", false},
		{dev, "http://127.0.0.1:4000/hook", true},
		{dev, "ftp://127.0.0.1/hook", false},
	} {
		if got := c.p.CheckURL(c.url) == ""; got != c.ok {
			t.Errorf("dev=%v %q: ok %v, want %v (%s)", c.p.Development, c.url, got, c.ok, c.p.CheckURL(c.url))
		}
	}
	for _, a := range []string{"8.8.8.8", "2606:4700::1111"} {
		if !Public(netip.MustParseAddr(a)) {
			t.Errorf("%s is public", a)
		}
	}
	for _, a := range []string{"::ffff:127.0.0.1", "fd00:ec2::254", "fe80::1", "172.16.0.1"} {
		if Public(netip.MustParseAddr(a)) {
			t.Errorf("%s is not public", a)
		}
	}
}
