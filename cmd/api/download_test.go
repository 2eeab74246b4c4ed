package main

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

func TestDownloadWindows(t *testing.T) {
	e := newTestEnv(t)
	installer := []byte("MZ placeholder installer")
	if err := os.WriteFile(filepath.Join(e.deps.Config.DownloadsDir, windowsInstaller), installer, 0o644); err != nil {
		t.Fatal(err)
	}
	s := e.seedAccount("downloader@example.com")
	download := func() response {
		return e.do(request{method: "GET", path: "/api/download/windows", cookie: s.Cookie})
	}

	r := download()
	if r.status != http.StatusForbidden || r.message(t) != "Subscription Required: You need an active subscription to download the software" {
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
	if err := os.Remove(filepath.Join(e.deps.Config.DownloadsDir, windowsInstaller)); err != nil {
		t.Fatal(err)
	}
	if r := download(); r.status != http.StatusServiceUnavailable || r.message(t) == "" {
		t.Fatalf("installer missing = %d %s", r.status, r.body)
	}
}

func TestPlaceholderInstallerShipped(t *testing.T) {
	// The default DOWNLOADS_DIR is downloads/ at the repository root.
	info, err := os.Stat(filepath.Join("..", "..", "downloads", windowsInstaller))
	if err != nil || info.Size() == 0 {
		t.Fatalf("placeholder installer: %v", err)
	}
}
