package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2e-automation/app/internal/config"
)

func TestPages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("privacy.md", "# Privacy policy\n\nWe keep little.\n")
	write("terms.md", "# Terms of service\n\nUsing {{productName}} means accepting these.\n")
	e := newTestEnv(t, func(c *config.Config) { c.PagesDir, c.ProductName = dir, "Lister" })
	if logs := e.logs.String(); !strings.Contains(logs, "page unavailable") || !strings.Contains(logs, "contact") {
		t.Fatalf("no start-up warning for the missing contact page: %s", logs)
	}
	var page struct{ Slug, Title, Markdown string }
	r := e.do(request{method: "GET", path: "/api/pages/privacy"}) // public: no session
	r.json(t, &page)
	if r.status != http.StatusOK || page.Slug != "privacy" || page.Title != "Privacy policy" || page.Markdown != "# Privacy policy\n\nWe keep little.\n" {
		t.Fatalf("privacy = %d %s", r.status, r.body)
	}
	r = e.do(request{method: "GET", path: "/api/pages/terms"})
	r.json(t, &page)
	if r.status != http.StatusOK || !strings.Contains(page.Markdown, "Using Lister means") {
		t.Fatalf("terms = %d %s", r.status, r.body)
	}

	// Read at each request: an operator's edit shows without a restart.
	write("privacy.md", "# Privacy\n\nEdited.\n")
	r = e.do(request{method: "GET", path: "/api/pages/privacy"})
	r.json(t, &page)
	if page.Title != "Privacy" || !strings.Contains(page.Markdown, "Edited.") {
		t.Fatalf("after an edit = %d %s", r.status, r.body)
	}

	before := strings.Count(e.logs.String(), "page unavailable")
	for _, path := range []string{"/api/pages/nope", "/api/pages/..%2Fterms", "/api/pages/terms.md", "/api/pages/contact"} {
		if r := e.do(request{method: "GET", path: path}); r.status != http.StatusNotFound || r.message(t) != "No such page" {
			t.Errorf("%s = %d %s", path, r.status, r.body)
		}
	}
	// Only the known page whose file is missing is the operator's to fix.
	if n := strings.Count(e.logs.String(), "page unavailable") - before; n != 1 {
		t.Errorf("%d errors logged, want 1 (the missing contact page): %s", n, e.logs.String())
	}
}

func TestShippedPagesAreServed(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t) // testConfig's PAGES_DIR is the repository's content/pages
	for _, slug := range []string{"contact", "privacy", "terms"} {
		var page struct{ Slug, Title, Markdown string }
		r := e.do(request{method: "GET", path: "/api/pages/" + slug})
		r.json(t, &page)
		if r.status != http.StatusOK || page.Slug != slug || page.Title == "" || !strings.Contains(page.Markdown, e.deps.Config.SupportEmail) {
			t.Errorf("%s = %d %s", slug, r.status, r.body)
		}
	}
}
