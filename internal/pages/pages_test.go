package pages

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestGet(t *testing.T) {
	dir := t.TempDir()
	s := New(dir, Vars{ProductName: "Lister", SupportEmail: "help@lister.example"})
	write(t, dir, "contact.md", "\uFEFF# Contact {{productName}}\r\n\nWrite to {{supportEmail}}.\n")
	p, err := s.Get("contact")
	if err != nil {
		t.Fatal(err)
	}
	if p.Slug != "contact" || p.Title != "Contact Lister" || p.Markdown != "# Contact Lister\r\n\nWrite to help@lister.example.\n" {
		t.Fatalf("page = %+v", p)
	}

	// Read at each call: an edit shows at once.
	write(t, dir, "contact.md", "Intro\n\n# Reach us\n\n# Later\n")
	if p, err := s.Get("contact"); err != nil || p.Title != "Reach us" {
		t.Fatalf("after an edit = %+v, %v", p, err)
	}
	write(t, dir, "terms.md", "No heading\n")
	if p, err := s.Get("terms"); err != nil || p.Title != "" {
		t.Fatalf("no heading = %+v, %v", p, err)
	}

	for _, slug := range []string{"nope", "../contact", "contact.md", "CONTACT", ""} {
		if _, err := s.Get(slug); !errors.Is(err, ErrNoSuchPage) {
			t.Errorf("%q: %v", slug, err)
		}
	}
	if _, err := s.Get("privacy"); err == nil || errors.Is(err, ErrNoSuchPage) || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	write(t, dir, "privacy.md", "# Big\n"+strings.Repeat("x", MaxBytes))
	if _, err := s.Get("privacy"); err == nil || !strings.Contains(err.Error(), "256 KiB") {
		t.Errorf("too large: %v", err)
	}
	write(t, dir, "privacy.md", "# Bad\n\xff\n")
	if _, err := s.Get("privacy"); err == nil || !strings.Contains(err.Error(), "UTF-8") {
		t.Errorf("not UTF-8: %v", err)
	}
}

func TestShippedPages(t *testing.T) {
	// The default PAGES_DIR is content/pages at the repository root.
	s := New(filepath.Join("..", "..", "content", "pages"), Vars{ProductName: "Amazon to eBay Automation", SupportEmail: "support@example.com"})
	for _, slug := range Slugs() {
		p, err := s.Get(slug)
		if err != nil {
			t.Fatalf("%s: %v", slug, err)
		}
		if !strings.HasPrefix(p.Markdown, "# ") || p.Title == "" || strings.Contains(p.Markdown, "{{") {
			t.Errorf("%s: title %q, markdown %q", slug, p.Title, p.Markdown)
		}
	}
}

func TestBuiltinGuide(t *testing.T) {
	s := New(t.TempDir(), Vars{ProductName: "Lister", SupportEmail: "help@lister.example", APIBaseURL: "https://lister.example"})
	p, err := s.Get("desktop-api")
	if err != nil {
		t.Fatal(err)
	}
	if p.Slug != "desktop-api" || p.Title != "Desktop API guide" {
		t.Fatalf("page = %q %q", p.Slug, p.Title)
	}
	for _, want := range []string{"https://lister.example/v1/listings", "help@lister.example", "The Lister desktop software"} {
		if !strings.Contains(p.Markdown, want) {
			t.Errorf("the guide lacks %q", want)
		}
	}
	if strings.Contains(p.Markdown, "{{") {
		t.Errorf("a placeholder is left in the guide")
	}
}
