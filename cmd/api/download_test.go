package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/testing/downloadstest"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// shippedInstaller is the repository's placeholder, at the default
// DOWNLOADS_DIR (downloads/ at the repository root).
var shippedInstaller = filepath.Join("..", "..", "downloads", "A2E-Automation-Setup-2.4.0.exe")

// withInstaller puts content in the test's DOWNLOADS_DIR as name, before
// the start-up looks for it.
func withInstaller(t testing.TB, name string, content []byte) func(*config.Config) {
	return func(c *config.Config) { downloadstest.WriteInstaller(t, c.DownloadsDir, name, content) }
}

// withRealInstaller is withInstaller with a real (minimal) Windows
// executable, the only kind production starts with.
func withRealInstaller(t testing.TB) func(*config.Config) {
	return withInstaller(t, "A2E-Automation-Setup-2.4.0.exe", downloadstest.WindowsExecutable())
}

const (
	msgSubscriptionRequired = "Subscription Required: You need an active subscription to download the software"
	msgDownloadUnavailable  = "The download is not available right now. Please try again later."
	msgLinkExpired          = "This download link has expired. Start the download again from the Download page."
)

func TestDownloadWindows(t *testing.T) {
	t.Parallel()
	installer := []byte("MZ placeholder installer")
	e := newTestEnv(t, withInstaller(t, "A2E-Automation-Setup-2.4.0.exe", installer))
	s := e.seedAccount("downloader@example.com")
	download := func() response {
		return e.do(request{method: "GET", path: "/api/download/windows", cookie: s.Cookie})
	}

	r := download()
	if r.status != http.StatusForbidden || r.message(t) != msgSubscriptionRequired {
		t.Fatalf("without a subscription = %d %s", r.status, r.body)
	}
	if e.lastEvent(s.ID) == "SoftwareDownloaded" {
		t.Fatal("a refused download was recorded")
	}

	e.subscribe(s.ID)
	r = download()
	if r.status != http.StatusOK || string(r.body) != string(installer) ||
		r.header.Get("Content-Disposition") != `attachment; filename=A2E-Automation-Setup-2.4.0.exe` ||
		r.header.Get("Content-Type") != "application/vnd.microsoft.portable-executable" {
		t.Fatalf("download = %d %v %q", r.status, r.header, r.body)
	}
	if e.lastEvent(s.ID) != "SoftwareDownloaded" {
		t.Fatal("download not recorded")
	}

	if r := e.do(request{method: "GET", path: "/api/download/windows"}); r.status != http.StatusUnauthorized {
		t.Fatalf("without a session = %d", r.status)
	}
	if err := os.Remove(filepath.Join(e.deps.Config.DownloadsDir, "A2E-Automation-Setup-2.4.0.exe")); err != nil {
		t.Fatal(err)
	}
	if r := download(); r.status != http.StatusServiceUnavailable || r.message(t) != msgDownloadUnavailable {
		t.Fatalf("installer missing = %d %s", r.status, r.body)
	}
}

// The version recorded and the file served come from DOWNLOADS_DIR: the
// highest version there, noticed without a restart.
func TestDownloadServesTheHighestVersion(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, withInstaller(t, "A2E-Automation-Setup-2.4.0.exe", []byte("old")))
	s := e.seedAccount("versions@example.com")
	e.subscribe(s.ID)
	downloadstest.WriteInstaller(t, e.deps.Config.DownloadsDir, "A2E-Automation-Setup-2.10.1.exe", []byte("new"))
	r := e.do(request{method: "GET", path: "/api/download/windows", cookie: s.Cookie})
	if r.status != http.StatusOK || string(r.body) != "new" || !strings.Contains(r.header.Get("Content-Disposition"), "Setup-2.10.1.exe") {
		t.Fatalf("download = %d %v %q", r.status, r.header, r.body)
	}
	h, err := e.repo().History(context.Background(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if ev, ok := h[len(h)-1].Event.(domain.SoftwareDownloaded); !ok || ev.Platform != "windows" || ev.Version != "2.10.1" {
		t.Fatalf("recorded %T %+v", h[len(h)-1].Event, h[len(h)-1].Event)
	}
}

func TestDownloadLink(t *testing.T) {
	t.Parallel()
	exe := downloadstest.WindowsExecutable()
	e := newTestEnv(t, withInstaller(t, "A2E-Automation-Setup-2.4.0.exe", exe))
	s := e.seedAccount("linker@example.com")
	other := e.seedAccount("other@example.com")
	link := func(cookie *http.Cookie) response {
		return e.do(request{method: "POST", path: "/api/download/windows/link", cookie: cookie})
	}

	if r := e.do(request{method: "POST", path: "/api/download/windows/link"}); r.status != http.StatusUnauthorized {
		t.Fatalf("without a session = %d %s", r.status, r.body)
	}
	if r := link(s.Cookie); r.status != http.StatusForbidden || r.message(t) != msgSubscriptionRequired {
		t.Fatalf("without a subscription = %d %s", r.status, r.body)
	}
	if n := e.countEvents(s.ID, "SoftwareDownloaded"); n != 0 {
		t.Fatalf("a refused link recorded %d downloads", n)
	}
	e.subscribe(s.ID)
	if r := e.do(request{method: "POST", path: "/api/download/windows/link", cookie: s.Cookie,
		header: map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://evil.example"}}); r.status != http.StatusForbidden {
		t.Fatalf("cross-site link = %d", r.status)
	}

	before := time.Now()
	r := link(s.Cookie)
	var got struct{ URL, FileName, ExpiresAt string }
	r.json(t, &got)
	expires, err := time.Parse(time.RFC3339, got.ExpiresAt)
	if r.status != http.StatusOK || got.FileName != "A2E-Automation-Setup-2.4.0.exe" || !strings.HasPrefix(got.URL, "/api/download/windows?token=") ||
		err != nil || expires.Before(before.Add(4*time.Minute)) || expires.After(time.Now().Add(5*time.Minute)) {
		t.Fatalf("link = %d %s (%v)", r.status, r.body, err)
	}
	if n := e.countEvents(s.ID, "SoftwareDownloaded"); n != 1 {
		t.Fatalf("the link recorded %d downloads, want 1", n)
	}

	// The link streams the file without recording it again, as often as
	// the seller's browser asks while it lasts.
	for range 2 {
		r = e.do(request{method: "GET", path: got.URL, cookie: s.Cookie})
		if r.status != http.StatusOK || !bytes.Equal(r.body, exe) ||
			r.header.Get("Content-Disposition") != `attachment; filename=A2E-Automation-Setup-2.4.0.exe` {
			t.Fatalf("download by link = %d %v", r.status, r.header)
		}
	}
	if n := e.countEvents(s.ID, "SoftwareDownloaded"); n != 1 {
		t.Fatalf("downloads by link recorded %d downloads, want 1", n)
	}

	// Another account's session, a changed token or no session at all.
	token := strings.TrimPrefix(got.URL, "/api/download/windows?token=")
	for name, c := range map[string]request{
		"another account": {method: "GET", path: got.URL, cookie: other.Cookie},
		"a changed token": {method: "GET", path: "/api/download/windows?token=1" + token, cookie: s.Cookie},
		"an empty token":  {method: "GET", path: "/api/download/windows?token=", cookie: s.Cookie},
	} {
		if r := e.do(c); r.status != http.StatusForbidden || r.message(t) != msgLinkExpired {
			t.Errorf("%s = %d %s", name, r.status, r.body)
		}
	}
	if r := e.do(request{method: "GET", path: got.URL}); r.status != http.StatusUnauthorized {
		t.Errorf("a link without a session = %d", r.status)
	}

	if err := os.Remove(filepath.Join(e.deps.Config.DownloadsDir, "A2E-Automation-Setup-2.4.0.exe")); err != nil {
		t.Fatal(err)
	}
	if r := link(s.Cookie); r.status != http.StatusServiceUnavailable || r.message(t) != msgDownloadUnavailable {
		t.Fatalf("a link without an installer = %d %s", r.status, r.body)
	}
	if r := e.do(request{method: "GET", path: got.URL, cookie: s.Cookie}); r.status != http.StatusServiceUnavailable || r.message(t) != msgDownloadUnavailable {
		t.Fatalf("a valid link without an installer = %d %s", r.status, r.body)
	}
	if n := e.countEvents(s.ID, "SoftwareDownloaded"); n != 1 {
		t.Fatalf("refusals recorded downloads: %d", n)
	}
}

func TestConfigDescribesTheInstaller(t *testing.T) {
	t.Parallel()
	type installer struct {
		Platform, FileName, Version, SHA256 string
		SizeBytes                           int64
	}
	var got struct{ Installer *installer }
	e := newTestEnv(t)
	r := e.do(request{method: "GET", path: "/api/config"})
	r.json(t, &got)
	if r.status != http.StatusOK || got.Installer != nil || !strings.Contains(string(r.body), `"installer":null`) {
		t.Fatalf("without an installer = %d %s", r.status, r.body)
	}
	exe := downloadstest.WindowsExecutable()
	downloadstest.WriteInstaller(t, e.deps.Config.DownloadsDir, "A2E-Automation-Setup-2.5.0.exe", exe)
	sum := sha256.Sum256(exe)
	r = e.do(request{method: "GET", path: "/api/config"})
	r.json(t, &got)
	want := installer{Platform: "windows", FileName: "A2E-Automation-Setup-2.5.0.exe", Version: "2.5.0",
		SHA256: hex.EncodeToString(sum[:]), SizeBytes: int64(len(exe))}
	if r.status != http.StatusOK || got.Installer == nil || *got.Installer != want {
		t.Fatalf("with an installer = %d %s", r.status, r.body)
	}
}

func TestPlaceholderInstallerShipped(t *testing.T) {
	t.Parallel()
	info, err := os.Stat(shippedInstaller)
	if err != nil || info.Size() == 0 {
		t.Fatalf("placeholder installer: %v", err)
	}
}

// Development serves the shipped placeholder, with a warning at start-up
// and at each download.
func TestDevelopmentServesThePlaceholder(t *testing.T) {
	t.Parallel()
	placeholder, err := os.ReadFile(shippedInstaller)
	if err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t, withInstaller(t, filepath.Base(shippedInstaller), placeholder))
	if logs := e.logs.String(); !strings.Contains(logs, "placeholder") || !strings.Contains(logs, "not a Windows executable") {
		t.Fatalf("no start-up warning: %s", logs)
	}
	s := e.seedAccount("dev-download@example.com")
	e.subscribe(s.ID)
	r := e.do(request{method: "GET", path: "/api/download/windows", cookie: s.Cookie})
	if r.status != http.StatusOK || !bytes.Equal(r.body, placeholder) {
		t.Fatalf("download = %d %q", r.status, r.body)
	}
	if n := strings.Count(e.logs.String(), "serving a placeholder installer"); n != 1 {
		t.Fatalf("%d download warnings: %s", n, e.logs.String())
	}
}

// productionEnv is a complete production environment on a migrated test
// database, serving on a free loopback port; downloads is DOWNLOADS_DIR.
func productionEnv(t *testing.T, downloads string) func(string) string {
	env := map[string]string{
		"DATABASE_URL":           testdb.NewURL(t),
		"APP_SECRET":             "3f9b0c6e12d47a85e0b9c3d61f27a4e8b5",
		"SMTP_URL":               "smtp://127.0.0.1:1",
		"STRIPE_SECRET_KEY":      "sk_test_production",
		"STRIPE_PUBLISHABLE_KEY": "pk_test_production",
		"STRIPE_WEBHOOK_SECRET":  "whsec_" + strings.Repeat("w", 32),
		"STRIPE_PRICE_ID":        "price_production",
		"APP_BASE_URL":           "https://app.example.com",
		"SUPPORT_EMAIL":          "support@example.com",
		"MAIL_FROM":              "no-reply@example.com",
		"METRICS_ADDR":           "off",
		"DOWNLOADS_DIR":          downloads,
	}
	return func(k string) string { return env[k] }
}

// Production refuses to start without a real installer and names
// DOWNLOADS_DIR and the problem; with one it starts.
func TestProductionStartsOnlyWithARealInstaller(t *testing.T) {
	t.Parallel()
	placeholder, err := os.ReadFile(shippedInstaller)
	if err != nil {
		t.Fatal(err)
	}
	// start runs bin/api's main until it listens (then stops it) or fails.
	start := func(getenv func(string) string) (listened bool, logs string, err error) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		stdout, stderr := &logBuffer{}, &logBuffer{}
		done := make(chan error, 1)
		go func() { done <- run(ctx, []string{"api", "-addr", "127.0.0.1:0"}, getenv, stdout, stderr) }()
		for {
			select {
			case err := <-done:
				return false, stderr.String(), err
			case <-time.After(20 * time.Millisecond):
				if strings.Contains(stdout.String(), "listening on") {
					cancel()
					err := <-done
					return true, stderr.String(), err
				}
			}
		}
	}

	dir := t.TempDir()
	_, logs, err := start(productionEnv(t, dir))
	if err == nil || !strings.Contains(err.Error(), "DOWNLOADS_DIR") || !strings.Contains(err.Error(), "no installer") {
		t.Fatalf("production without an installer: %v\n%s", err, logs)
	}
	t.Logf("without an installer: %v", err)
	downloadstest.WriteInstaller(t, dir, "A2E-Automation-Setup-2.4.0.exe", placeholder)
	_, logs, err = start(productionEnv(t, dir))
	if err == nil || !strings.Contains(err.Error(), "DOWNLOADS_DIR") || !strings.Contains(err.Error(), "A2E-Automation-Setup-2.4.0.exe is not a Windows executable") {
		t.Fatalf("production with the placeholder: %v\n%s", err, logs)
	}
	t.Logf("with the placeholder: %v", err)
	downloadstest.WriteInstaller(t, dir, "A2E-Automation-Setup-2.4.1.exe", downloadstest.WindowsExecutable())
	if listened, logs, err := start(productionEnv(t, dir)); !listened || err != nil || !strings.Contains(logs, "A2E-Automation-Setup-2.4.1.exe") {
		t.Fatalf("production with a real installer: listened %v, %v\n%s", listened, err, logs)
	}
}
