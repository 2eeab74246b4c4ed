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
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/singleflight"
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

// DefaultSettle is how long ago an installer must have last been modified
// before it is preferred to an older installer (see Installers.choose): an
// operator's copy in progress keeps touching the file.
const DefaultSettle = 30 * time.Second

// Installers finds the installer in a directory. The directory is scanned at
// every call, so an operator's new file is served without a restart; the
// SHA-256 and the executable check are computed once per file (by one
// caller at a time) and kept while its path, size, modification time and
// identity (os.SameFile: a file renamed into place is another file) stay the
// same.
type Installers struct {
	dir               string
	requireExecutable bool
	settle            time.Duration
	log               *slog.Logger

	flights singleflight.Group
	// computed counts the computations of a file's facts; computeHook, when
	// set, runs at the start of each. Both are for the tests.
	computed    atomic.Int64
	computeHook func()

	mu    sync.Mutex
	facts map[string]fileFacts // by path
	// warnedRecent is the name last served while recently modified, warned
	// about once; it is forgotten when a settled installer is served.
	warnedRecent string
}

// fileFacts are what is costly to learn about one version of a file.
type fileFacts struct {
	// info is the file's os.Stat when it was read: its size, modification
	// time and identity.
	info          os.FileInfo
	sha256        string
	notExecutable error
}

// describes says whether the facts were learnt from the file info
// describes, as far as its size, modification time and identity tell.
func (f fileFacts) describes(info os.FileInfo) bool {
	return f.info != nil && f.info.Size() == info.Size() && f.info.ModTime().Equal(info.ModTime()) &&
		os.SameFile(f.info, info)
}

// Option adjusts NewInstallers.
type Option func(*Installers)

// WithSettle replaces DefaultSettle.
func WithSettle(d time.Duration) Option { return func(s *Installers) { s.settle = d } }

// WithLogger sets the logger of the warning about a recently modified
// installer served for want of another (default slog.Default()).
func WithLogger(log *slog.Logger) Option { return func(s *Installers) { s.log = log } }

// NewInstallers returns the installers in dir. With requireExecutable (in
// production) an installer that is not a Windows executable is never
// served: Open and Latest answer ErrNotExecutable.
func NewInstallers(dir string, requireExecutable bool, opts ...Option) *Installers {
	s := &Installers{dir: dir, requireExecutable: requireExecutable, settle: DefaultSettle, log: slog.Default(),
		facts: map[string]fileFacts{}}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Latest describes the installer Open would open (see choose).
func (s *Installers) Latest() (Installer, error) {
	f, inst, err := s.Open()
	if err != nil {
		return Installer{}, err
	}
	_ = f.Close()
	return inst, nil
}

// Open opens the installer with the highest version (of the settled ones:
// see choose) and describes the file it opened (not whatever is at its path
// a moment later). The caller closes the file.
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
		SizeBytes: facts.info.Size(), SHA256: facts.sha256, NotExecutable: facts.notExecutable}
	if s.requireExecutable && inst.NotExecutable != nil {
		_ = f.Close()
		return nil, Installer{}, inst.NotExecutable
	}
	return f, inst, nil
}

// choose returns the name and version of the installer to serve: the
// regular file with the highest version among the settled ones, those last
// modified at least the settle period (DefaultSettle) ago; of equal
// versions (2.4 and 2.4.0, or two names) the last name in byte order, so
// the choice never depends on the directory's order.
//
// A file modified more recently may still be being copied in, and a
// partial file passes the executable check (its headers come first). On an
// upgrade an older installer is there to serve meanwhile, so the new one is
// skipped until it has not changed for the settle period (its modification
// time in the future counts as recent too). On a first deployment there is
// nothing else: refusing would make production's start-up fail, or answer
// 503, for a file the operator has just put there, so when no installer is
// settled the highest version is served anyway and a warning is logged
// once (until a settled installer is served again). Settling is a guess
// from the clock; the reliable way to deploy a file is to upload it under a
// name the pattern does not match and rename it into place
// (docs/downloads-and-pages.md).
func (s *Installers) choose() (name, version string, err error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return "", "", err
	}
	type candidate struct {
		name, version string
		v             []int
		modTime       time.Time
	}
	after := func(c candidate, than *candidate) bool {
		if than == nil {
			return true
		}
		cmp := compareVersions(c.v, than.v)
		return cmp > 0 || (cmp == 0 && c.name > than.name)
	}
	now := time.Now()
	var best, settled *candidate
	for _, e := range entries {
		m := installerName.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		// Stat follows a symbolic link, so an operator may link the file.
		info, err := os.Stat(filepath.Join(s.dir, e.Name()))
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		c := candidate{name: e.Name(), version: m[1], v: parseVersion(m[1]), modTime: info.ModTime()}
		if after(c, best) {
			best = &c
		}
		if now.Sub(c.modTime) >= s.settle && after(c, settled) {
			settled = &c
		}
	}
	if best == nil {
		return "", "", ErrNoInstaller
	}
	chosen := best
	if settled != nil {
		chosen = settled
	}
	s.mu.Lock()
	warn := settled == nil && s.warnedRecent != chosen.name
	if settled == nil {
		s.warnedRecent = chosen.name
	} else {
		s.warnedRecent = ""
	}
	s.mu.Unlock()
	if warn {
		s.log.Warn("serving an installer modified very recently, for want of an older one: if it is still being copied in, sellers receive a partial file; upload under another name and rename it into place",
			"file", filepath.Join(s.dir, chosen.name), "modified", chosen.modTime, "settle", s.settle)
	}
	return chosen.name, chosen.version, nil
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
// path, size, modification time and identity are those last seen. Else one
// caller per path, identity, size and time computes them, with no lock
// held, and the others wait for its result. Only what was read is cached:
// an I/O error is returned to this call alone.
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
	if ok && cached.describes(info) {
		return cached, nil
	}
	key := strings.Join([]string{path, fileID(info), strconv.FormatInt(info.Size(), 10),
		strconv.FormatInt(info.ModTime().UnixNano(), 10)}, "\x00")
	v, err, _ := s.flights.Do(key, func() (any, error) { return s.compute(f, path, info) })
	if err != nil {
		return fileFacts{}, err
	}
	if facts := v.(fileFacts); facts.describes(info) {
		return facts, nil
	}
	// Another file under the same key: only where fileID knows no identity.
	return s.compute(f, path, info)
}

// compute reads f, whose os.Stat is info, and caches its facts unless it
// changed while it was read (the facts then describe this call's reading
// only).
func (s *Installers) compute(f *os.File, path string, info os.FileInfo) (fileFacts, error) {
	s.computed.Add(1)
	if s.computeHook != nil {
		s.computeHook()
	}
	sum, notExecutable, err := inspect(f, info.Size(), filepath.Base(path))
	if err != nil {
		return fileFacts{}, fmt.Errorf("read %s: %w", path, err)
	}
	facts := fileFacts{info: info, sha256: sum, notExecutable: notExecutable}
	if again, err := f.Stat(); err == nil && again.Size() == info.Size() && again.ModTime().Equal(info.ModTime()) {
		s.mu.Lock()
		s.facts[path] = facts
		s.mu.Unlock()
	}
	return facts, nil
}

// inspect hashes the first size bytes of r and checks they are a Windows
// executable. err is an error reading r, whatever the check concluded; the
// check's verdict is only returned when every read succeeded or met the end
// of the file. ReaderAt reads leave an *os.File's offset where it was.
func inspect(r io.ReaderAt, size int64, name string) (sum string, notExecutable, err error) {
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(r, 0, size)); err != nil {
		return "", nil, err
	}
	notExecutable, err = executableVerdict(io.NewSectionReader(r, 0, size), name)
	if err != nil {
		return "", nil, err
	}
	return hex.EncodeToString(h.Sum(nil)), notExecutable, nil
}

// executableVerdict is checkExecutable's verdict on r, or the first error
// reading r other than io.EOF: debug/pe reports a failed read as a
// malformed file, which would be a verdict on a file it could not read.
func executableVerdict(r io.ReaderAt, name string) (notExecutable, err error) {
	rec := &readErrors{r: r}
	notExecutable = checkExecutable(rec, name)
	if rec.err != nil {
		return nil, rec.err
	}
	return notExecutable, nil
}

// readErrors keeps the first error of its ReaderAt other than io.EOF.
type readErrors struct {
	r   io.ReaderAt
	err error
}

func (e *readErrors) ReadAt(p []byte, off int64) (int, error) {
	n, err := e.r.ReadAt(p, off)
	if err != nil && !errors.Is(err, io.EOF) && e.err == nil {
		e.err = err
	}
	return n, err
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
