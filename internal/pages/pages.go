// Package pages serves the operator's public pages (contact, privacy,
// terms): Markdown files in PAGES_DIR, read at each request so an edit
// shows without a restart.
package pages

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// Slugs are the pages there are; each is the file <slug>.md.
func Slugs() []string { return []string{"contact", "privacy", "terms"} }

// MaxBytes bounds one page's file.
const MaxBytes = 256 << 10

// ErrNoSuchPage is a slug that names no page.
var ErrNoSuchPage = errors.New("no such page")

// Page is one page: its title (the text of its first "# " line) and the
// whole Markdown, that line included.
type Page struct {
	Slug     string
	Title    string
	Markdown string
}

// Store reads the pages from a directory.
type Store struct {
	dir  string
	vars *strings.Replacer
}

// Vars are the values of the placeholders a page may use: {{productName}}
// and {{supportEmail}}, so the shipped pages fit any deployment.
type Vars struct {
	ProductName  string
	SupportEmail string
}

// New returns the pages in dir.
func New(dir string, v Vars) *Store {
	return &Store{dir: dir, vars: strings.NewReplacer("{{productName}}", v.ProductName, "{{supportEmail}}", v.SupportEmail)}
}

// Get reads the page slug. An unknown slug is ErrNoSuchPage; a page whose
// file is missing, too large or not UTF-8 text is another error, which the
// caller logs: that is the operator's to fix.
func (s *Store) Get(slug string) (Page, error) {
	if !slices.Contains(Slugs(), slug) {
		return Page{}, ErrNoSuchPage
	}
	path := filepath.Join(s.dir, slug+".md")
	f, err := os.Open(path)
	if err != nil {
		return Page{}, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	switch {
	case err != nil:
		return Page{}, fmt.Errorf("read %s: %w", path, err)
	case len(b) > MaxBytes:
		return Page{}, fmt.Errorf("%s is larger than %d KiB", path, MaxBytes>>10)
	case !utf8.Valid(b):
		return Page{}, fmt.Errorf("%s is not UTF-8 text", path)
	}
	md := s.vars.Replace(strings.TrimPrefix(string(b), "\uFEFF"))
	return Page{Slug: slug, Title: title(md), Markdown: md}, nil
}

// title is the text of the first line that starts with "# ", "" when there
// is none.
func title(md string) string {
	sc := bufio.NewScanner(strings.NewReader(md))
	sc.Buffer(nil, MaxBytes+1)
	for sc.Scan() {
		if t, ok := strings.CutPrefix(sc.Text(), "# "); ok {
			return strings.TrimSpace(t)
		}
	}
	return ""
}
