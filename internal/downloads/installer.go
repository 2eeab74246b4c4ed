// Package downloads serves the desktop software: it finds the Windows
// installer in DOWNLOADS_DIR and describes it from the file itself (name,
// version, size, SHA-256, whether it is a real Windows executable), records
// downloads on the seller's account and signs short-lived download links.
package downloads

import (
	"crypto/sha256"
	"debug/pe"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// PlatformWindows is the one platform with an installer (Mac is coming).
const PlatformWindows = "windows"

// installerName is the installer's file name: anything, "-Setup-", a
// version of two to four dot-separated numbers, ".exe".
var installerName = regexp.MustCompile(`^.+-Setup-([0-9]{1,9}(?:\.[0-9]{1,9}){1,3})\.exe$`)

// ErrNoInstaller means DOWNLOADS_DIR holds no file named like an installer.
var ErrNoInstaller = errors.New("no installer named <name>-Setup-<version>.exe (such as A2E-Automation-Setup-2.4.0.exe)")

// ErrNotExecutable means the installer chosen is not a Windows executable
// (the repository's text placeholder, say).
var ErrNotExecutable = errors.New("not a Windows executable")

// Installer describes the installer file that would be served.
type Installer struct {
	Platform  string
	Path      string
	FileName  string
	Version   string
	SizeBytes int64
	SHA256    string // lowercase hex
	// NotExecutable says why the file does not parse as a Windows PE
	// executable; nil when it does.
	NotExecutable error
}

// Installers finds the installer in a directory. The directory is scanned at
// every call, so an operator's new file is served without a restart; the
// SHA-256 and the executable check are computed once per file and kept while
// its path, size and modification time stay the same.
type Installers struct {
	dir               string
	requireExecutable bool

	mu    sync.Mutex
	facts map[string]fileFacts // by path
}

// fileFacts are what is costly to learn about one version of a file.
type fileFacts struct {
	size          int64
	modTime       time.Time
	sha256        string
	notExecutable error
}

// NewInstallers returns the installers in dir. With requireExecutable (in
// production) an installer that is not a Windows executable is never
// served: Open and Latest answer ErrNotExecutable.
func NewInstallers(dir string, requireExecutable bool) *Installers {
	return &Installers{dir: dir, requireExecutable: requireExecutable, facts: map[string]fileFacts{}}
}

// Latest describes the installer with the highest version.
func (s *Installers) Latest() (Installer, error) {
	f, inst, err := s.Open()
	if err != nil {
		return Installer{}, err
	}
	_ = f.Close()
	return inst, nil
}

// Open opens the installer with the highest version and describes the file
// it opened (not whatever is at its path a moment later). The caller closes
// the file.
func (s *Installers) Open() (*os.File, Installer, error) {
	name, version, err := s.choose()
	if err != nil {
		return nil, Installer{}, err
	}
	path := filepath.Join(s.dir, name)
	f, err := os.Open(path)
	if err != nil {
		return nil, Installer{}, err
	}
	facts, err := s.factsOf(f, path)
	if err != nil {
		_ = f.Close()
		return nil, Installer{}, err
	}
	inst := Installer{Platform: PlatformWindows, Path: path, FileName: name, Version: version,
		SizeBytes: facts.size, SHA256: facts.sha256, NotExecutable: facts.notExecutable}
	if s.requireExecutable && inst.NotExecutable != nil {
		_ = f.Close()
		return nil, Installer{}, inst.NotExecutable
	}
	return f, inst, nil
}

// choose returns the name and version of the regular file with the highest
// version; of equal versions (2.4 and 2.4.0, or two names) the last name in
// byte order, so the choice never depends on the directory's order.
func (s *Installers) choose() (name, version string, err error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return "", "", err
	}
	var best []int
	for _, e := range entries {
		m := installerName.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		// Stat follows a symbolic link, so an operator may link the file.
		if info, err := os.Stat(filepath.Join(s.dir, e.Name())); err != nil || !info.Mode().IsRegular() {
			continue
		}
		v := parseVersion(m[1])
		if c := compareVersions(v, best); name == "" || c > 0 || (c == 0 && e.Name() > name) {
			name, version, best = e.Name(), m[1], v
		}
	}
	if name == "" {
		return "", "", ErrNoInstaller
	}
	return name, version, nil
}

// parseVersion splits a version the installer pattern matched.
func parseVersion(s string) []int {
	var v []int
	for _, p := range strings.Split(s, ".") {
		n, _ := strconv.Atoi(p) // at most 9 digits: the pattern says so
		v = append(v, n)
	}
	return v
}

// compareVersions compares part by part; a missing part is 0.
func compareVersions(a, b []int) int {
	for i := range max(len(a), len(b)) {
		var x, y int
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			if x < y {
				return -1
			}
			return 1
		}
	}
	return 0
}

// factsOf returns the facts of the open file f, from the cache when its
// path, size and modification time are those last seen. The hash runs with
// no lock held: two first callers may both compute it, with the same result.
func (s *Installers) factsOf(f *os.File, path string) (fileFacts, error) {
	info, err := f.Stat()
	if err != nil {
		return fileFacts{}, err
	}
	if !info.Mode().IsRegular() {
		return fileFacts{}, fmt.Errorf("%s is not a regular file", path)
	}
	s.mu.Lock()
	cached, ok := s.facts[path]
	s.mu.Unlock()
	if ok && cached.size == info.Size() && cached.modTime.Equal(info.ModTime()) {
		return cached, nil
	}
	// ReaderAt reads leave f's offset at 0 for the caller.
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, info.Size())); err != nil {
		return fileFacts{}, fmt.Errorf("read %s: %w", path, err)
	}
	facts := fileFacts{size: info.Size(), modTime: info.ModTime(), sha256: hex.EncodeToString(h.Sum(nil)),
		notExecutable: checkExecutable(f, filepath.Base(path))}
	s.mu.Lock()
	s.facts[path] = facts
	s.mu.Unlock()
	return facts, nil
}

// checkExecutable reports why r is not a Windows executable image (a PE
// file with an optional header, marked executable, not a DLL), or nil.
func checkExecutable(r io.ReaderAt, name string) error {
	// debug/pe reads a file without the DOS header as a COFF object, whose
	// complaint about a text file would be obscure.
	magic := make([]byte, 2)
	if _, err := r.ReadAt(magic, 0); err != nil || string(magic) != "MZ" {
		return fmt.Errorf("%s is %w: it does not start with the MZ header of a Windows program (a placeholder?)", name, ErrNotExecutable)
	}
	f, err := pe.NewFile(r)
	if err != nil {
		return fmt.Errorf("%s is %w: %v", name, ErrNotExecutable, err)
	}
	defer f.Close()
	switch {
	case f.OptionalHeader == nil:
		return fmt.Errorf("%s is %w: a PE object file without an optional header", name, ErrNotExecutable)
	case f.Characteristics&pe.IMAGE_FILE_EXECUTABLE_IMAGE == 0:
		return fmt.Errorf("%s is %w: the PE header does not mark it executable", name, ErrNotExecutable)
	case f.Characteristics&pe.IMAGE_FILE_DLL != 0:
		return fmt.Errorf("%s is %w: it is a DLL", name, ErrNotExecutable)
	}
	return nil
}
