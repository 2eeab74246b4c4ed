// Package pages serves the public pages: the operator's (contact, privacy,
// terms), Markdown files in PAGES_DIR read at each request so an edit shows
// without a restart, and the built-in ones (the desktop API guide), which
// describe this binary and so ship inside it.
package pages

import (
	"bufio"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// Slugs are the operator's pages; each is the file <slug>.md in PAGES_DIR.
func Slugs() []string { return []string{"contact", "privacy", "terms"} }

// builtin holds the built-in pages, builtin/<slug>.md.
//
//go:embed builtin/*.md
var builtin embed.FS

// BuiltinSlugs are the pages that ship in the binary.
func BuiltinSlugs() []string { return []string{"desktop-api"} }

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

// Vars are the values of the placeholders a page may use: {{productName}},
// {{supportEmail}} and {{apiBaseUrl}} (the public address, no trailing
// slash), so the shipped pages fit any deployment.
type Vars struct {
	ProductName  string
	SupportEmail string
	APIBaseURL   string
}

// New returns the operator's pages in dir and the built-in ones.
func New(dir string, v Vars) *Store {
	return &Store{dir: dir, vars: strings.NewReplacer("{{productName}}", v.ProductName, "{{supportEmail}}", v.SupportEmail,
		"{{apiBaseUrl}}", v.APIBaseURL)}
}

// Get reads the page slug. An unknown slug is ErrNoSuchPage; a page whose
// file is missing, too large or not UTF-8 text is another error, which the
// caller logs: that is the operator's to fix.
func (s *Store) Get(slug string) (Page, error) {
	var (
		b   []byte
		err error
	)
	switch {
	case slices.Contains(BuiltinSlugs(), slug):
		b, err = read(builtin, ".", "builtin/"+slug+".md")
	case slices.Contains(Slugs(), slug):
		b, err = read(os.DirFS(s.dir), s.dir, slug+".md")
	default:
		return Page{}, ErrNoSuchPage
	}
	if err != nil {
		return Page{}, err
	}
	md := s.vars.Replace(strings.TrimPrefix(string(b), "\uFEFF"))
	return Page{Slug: slug, Title: title(md), Markdown: md}, nil
}

// read reads the page file name of fsys (the directory dir), refusing one
// too large or not UTF-8 text.
func read(fsys fs.FS, dir, name string) ([]byte, error) {
	path := filepath.Join(dir, name)
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	switch {
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", path, err)
	case len(b) > MaxBytes:
		return nil, fmt.Errorf("%s is larger than %d KiB", path, MaxBytes>>10)
	case !utf8.Valid(b):
		return nil, fmt.Errorf("%s is not UTF-8 text", path)
	}
	return b, nil
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
