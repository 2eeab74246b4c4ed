package downloads

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2e-automation/app/internal/testing/downloadstest"
)

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func TestLatestPicksTheHighestVersion(t *testing.T) {
	dir := t.TempDir()
	exe := downloadstest.WindowsExecutable()
	for _, name := range []string{
		"A2E-Automation-Setup-2.4.0.exe", "A2E-Automation-Setup-2.10.0.exe", "Other-Setup-2.9.exe",
		"A2E-Automation-Setup-99.0.0.exe.part", "A2E-Automation-Setup-99.0.0-beta.exe", "Setup-99.0.0.exe",
		"A2E-Automation-Setup-99.exe", "README.txt",
	} {
		downloadstest.WriteInstaller(t, dir, name, exe)
	}
	if err := os.Mkdir(filepath.Join(dir, "Dir-Setup-50.0.0.exe"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := NewInstallers(dir, true).Latest()
	if err != nil {
		t.Fatal(err)
	}
	want := Installer{Platform: "windows", Path: filepath.Join(dir, "A2E-Automation-Setup-2.10.0.exe"), FileName: "A2E-Automation-Setup-2.10.0.exe",
		Version: "2.10.0", SizeBytes: int64(len(exe)), SHA256: sum(exe)}
	if got != want {
		t.Fatalf("latest = %+v\nwant %+v", got, want)
	}

	// Equal versions: the last name, whatever the directory's order.
	downloadstest.WriteInstaller(t, dir, "Z-Setup-2.10.exe", exe)
	if got, err := NewInstallers(dir, true).Latest(); err != nil || got.FileName != "Z-Setup-2.10.exe" || got.Version != "2.10" {
		t.Fatalf("of equal versions = %+v, %v", got, err)
	}
}

func TestNoInstaller(t *testing.T) {
	dir := t.TempDir()
	downloadstest.WriteInstaller(t, dir, "notes.txt", []byte("x"))
	if _, err := NewInstallers(dir, false).Latest(); !errors.Is(err, ErrNoInstaller) {
		t.Fatalf("empty directory: %v", err)
	}
	if _, err := NewInstallers(filepath.Join(dir, "missing"), false).Latest(); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing directory: %v", err)
	}
}

func TestExecutableCheck(t *testing.T) {
	dir := t.TempDir()
	placeholder := []byte("A2E Automation 2.4.0 for Windows: development placeholder.\n")
	downloadstest.WriteInstaller(t, dir, "A2E-Automation-Setup-2.4.0.exe", placeholder)

	inst, err := NewInstallers(dir, false).Latest()
	if err != nil || !errors.Is(inst.NotExecutable, ErrNotExecutable) || inst.SHA256 != sum(placeholder) {
		t.Fatalf("a placeholder in development = %+v, %v", inst, err)
	}
	if _, _, err := NewInstallers(dir, true).Open(); !errors.Is(err, ErrNotExecutable) {
		t.Fatalf("a placeholder where an executable is required: %v", err)
	}

	exe := downloadstest.WindowsExecutable()
	if err := checkExecutable(bytesReaderAt(exe), "x.exe"); err != nil {
		t.Fatalf("the minimal executable: %v", err)
	}
	dll := append([]byte(nil), exe...)
	const characteristics = 0x40 + 4 + 18 // PE signature, then FileHeader.Characteristics
	binary.LittleEndian.PutUint16(dll[characteristics:], binary.LittleEndian.Uint16(dll[characteristics:])|0x2000)
	if err := checkExecutable(bytesReaderAt(dll), "x.exe"); !errors.Is(err, ErrNotExecutable) {
		t.Fatalf("a DLL: %v", err)
	}
	if err := checkExecutable(bytesReaderAt([]byte("MZ")), "x.exe"); !errors.Is(err, ErrNotExecutable) {
		t.Fatalf("two bytes: %v", err)
	}
}

func TestFactsAreCachedByPathSizeAndTime(t *testing.T) {
	dir, s, path, stamp := settledFirstInstaller(t)

	// Same path, size and time: the cached hash (it is not recomputed).
	downloadstest.WriteInstaller(t, dir, "A-Setup-1.0.0.exe", []byte("other"))
	if err := os.Chtimes(path, stamp, stamp); err != nil {
		t.Fatal(err)
	}
	if inst, _ := s.Latest(); inst.SHA256 != sum([]byte("first")) {
		t.Fatal("the hash was recomputed for an unchanged path, size and time")
	}

	// A replaced file (new time) is noticed, and so is a new size.
	later := stamp.Add(time.Minute)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if inst, _ := s.Latest(); inst.SHA256 != sum([]byte("other")) {
		t.Fatalf("a replaced file was not noticed: %+v", inst)
	}
	downloadstest.WriteInstaller(t, dir, "A-Setup-1.0.0.exe", []byte("longer content"))
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if inst, _ := s.Latest(); inst.SHA256 != sum([]byte("longer content")) || inst.SizeBytes != 14 {
		t.Fatalf("a new size was not noticed: %+v", inst)
	}

	// Open describes the file it opened, and leaves it at offset 0.
	f, inst, err := s.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	body, err := io.ReadAll(f)
	if err != nil || string(body) != "longer content" || inst.SHA256 != sum(body) {
		t.Fatalf("opened %q, %+v, %v", body, inst, err)
	}
}

type bytesReaderAt []byte

func (b bytesReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(b)) {
		return 0, io.EOF
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// age sets path's modification time to ago before now.
func age(t *testing.T, path string, ago time.Duration) {
	t.Helper()
	stamp := time.Now().Add(-ago)
	if err := os.Chtimes(path, stamp, stamp); err != nil {
		t.Fatal(err)
	}
}

func TestARecentInstallerWaitsForItToSettle(t *testing.T) {
	dir := t.TempDir()
	exe := downloadstest.WindowsExecutable()
	var logs strings.Builder
	s := NewInstallers(dir, true, WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	warnings := func() int { return strings.Count(logs.String(), "level=WARN") }

	// A first deployment: the only installer is served at once, with one
	// warning however often it is asked for.
	first := downloadstest.WriteInstaller(t, dir, "A-Setup-2.4.0.exe", exe)
	for range 3 {
		if inst, err := s.Latest(); err != nil || inst.Version != "2.4.0" {
			t.Fatalf("the only, recent installer = %+v, %v", inst, err)
		}
	}
	if warnings() != 1 || !strings.Contains(logs.String(), "A-Setup-2.4.0.exe") {
		t.Fatalf("want one warning naming the file, logged:\n%s", logs.String())
	}

	// An upgrade: the new version, still being copied for all we know,
	// waits while the settled older one is served; no warning then.
	age(t, first, time.Hour)
	newer := downloadstest.WriteInstaller(t, dir, "A-Setup-2.5.0.exe", exe[:len(exe)/2])
	if inst, err := s.Latest(); err != nil || inst.Version != "2.4.0" || inst.SizeBytes != int64(len(exe)) {
		t.Fatalf("with a settled older installer = %+v, %v", inst, err)
	}
	if warnings() != 1 {
		t.Fatalf("warned about a skipped installer:\n%s", logs.String())
	}
	// Copied in full and left alone for the settle period: served.
	downloadstest.WriteInstaller(t, dir, "A-Setup-2.5.0.exe", exe)
	age(t, newer, DefaultSettle+time.Second)
	if inst, err := s.Latest(); err != nil || inst.Version != "2.5.0" || inst.SHA256 != sum(exe) {
		t.Fatalf("the settled newer installer = %+v, %v", inst, err)
	}
	// A modification time in the future is recent.
	future := downloadstest.WriteInstaller(t, dir, "A-Setup-2.6.0.exe", exe)
	age(t, future, -time.Hour)
	if inst, _ := s.Latest(); inst.Version != "2.5.0" {
		t.Fatalf("a file dated in the future was served: %+v", inst)
	}
	// Several installers, none settled: the highest, with a warning again
	// (a settled one was served in between).
	dir2 := t.TempDir()
	downloadstest.WriteInstaller(t, dir2, "A-Setup-2.4.0.exe", exe)
	downloadstest.WriteInstaller(t, dir2, "A-Setup-2.10.0.exe", exe)
	if inst, _ := NewInstallers(dir2, true, WithLogger(slog.New(slog.DiscardHandler))).Latest(); inst.Version != "2.10.0" {
		t.Fatalf("none settled = %+v", inst)
	}

	// The settle period is an option.
	if inst, _ := NewInstallers(dir, true, WithSettle(0)).Latest(); inst.Version != "2.5.0" {
		t.Fatalf("with no settle period = %+v", inst) // 2.6.0 is still in the future
	}
	age(t, future, 0)
	if inst, _ := NewInstallers(dir, true, WithSettle(0)).Latest(); inst.Version != "2.6.0" {
		t.Fatalf("with no settle period = %+v", inst)
	}
	if inst, _ := NewInstallers(dir, true, WithSettle(2*time.Hour), WithLogger(slog.New(slog.DiscardHandler))).Latest(); inst.Version != "2.6.0" {
		t.Fatalf("with a settle period longer than every file's age = %+v", inst)
	}
}

func TestAFileRenamedIntoPlaceIsNoticed(t *testing.T) {
	dir, s, path, stamp := settledFirstInstaller(t)
	// The operator's deployment: upload under a name that does not match,
	// then rename over the old file; same size, same modification time.
	part := downloadstest.WriteInstaller(t, dir, "A-Setup-1.0.0.exe.part", []byte("other"))
	if err := os.Chtimes(part, stamp, stamp); err != nil {
		t.Fatal(err)
	}
	if inst, _ := s.Latest(); inst.SHA256 != sum([]byte("first")) {
		t.Fatalf("the .part file was looked at: %+v", inst)
	}
	if err := os.Rename(part, path); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(path); err != nil || info.Size() != 5 || !info.ModTime().Equal(stamp) {
		t.Fatalf("the renamed file: %v, %v", info, err)
	}
	if inst, err := s.Latest(); err != nil || inst.SHA256 != sum([]byte("other")) {
		t.Fatalf("a file renamed into place with the same size and time was not noticed: %+v, %v", inst, err)
	}
	if n := s.computed.Load(); n != 2 {
		t.Fatalf("computed %d times, want 2", n)
	}
}

func TestAReadErrorIsNotCached(t *testing.T) {
	dir := t.TempDir()
	exe := downloadstest.WindowsExecutable()
	path := downloadstest.WriteInstaller(t, dir, "A-Setup-1.0.0.exe", exe)
	age(t, path, time.Hour)
	s := NewInstallers(dir, true)

	// A descriptor that cannot read (a real one: opened write-only): the
	// error is this call's, not a verdict on the file, and not kept.
	wo, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer wo.Close()
	if notExe, err := executableVerdict(wo, "A-Setup-1.0.0.exe"); err == nil || errors.Is(err, ErrNotExecutable) || notExe != nil {
		t.Fatalf("the executable check of an unreadable file = %v, %v; want a read error", notExe, err)
	}
	if _, err := s.factsOf(wo, path); err == nil || errors.Is(err, ErrNotExecutable) {
		t.Fatalf("facts through an unreadable descriptor: %v", err)
	}
	if inst, err := s.Latest(); err != nil || inst.NotExecutable != nil || inst.SHA256 != sum(exe) {
		t.Fatalf("after a read error = %+v, %v", inst, err)
	}

	// A file the process may not read for a while.
	path2 := downloadstest.WriteInstaller(t, dir, "A-Setup-1.1.0.exe", exe)
	age(t, path2, time.Hour)
	if err := os.Chmod(path2, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(path2, 0o644) })
	if f, err := os.Open(path2); err == nil {
		_ = f.Close()
		t.Skipf("chmod 000 does not stop this process (euid %d) reading", os.Geteuid())
	}
	if _, err := s.Latest(); !errors.Is(err, os.ErrPermission) {
		t.Fatalf("an unreadable installer: %v", err)
	}
	if err := os.Chmod(path2, 0o644); err != nil {
		t.Fatal(err)
	}
	if inst, err := s.Latest(); err != nil || inst.Version != "1.1.0" || inst.NotExecutable != nil {
		t.Fatalf("readable again = %+v, %v", inst, err)
	}
}

func TestConcurrentCallersHashAFileOnce(t *testing.T) {
	dir := t.TempDir()
	exe := downloadstest.WindowsExecutable()
	path := downloadstest.WriteInstaller(t, dir, "A-Setup-1.0.0.exe", exe)
	age(t, path, time.Hour)
	s := NewInstallers(dir, true)
	release := make(chan struct{})
	s.computeHook = func() { <-release }

	const callers = 16
	var started, done sync.WaitGroup
	results := make([]Installer, callers)
	errs := make([]error, callers)
	for i := range callers {
		started.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			started.Done()
			results[i], errs[i] = s.Latest()
		}()
	}
	started.Wait()
	// The first computation is held until the others have had time to
	// find the cache empty; those that come later find it full.
	time.Sleep(100 * time.Millisecond)
	close(release)
	done.Wait()
	for i := range callers {
		if errs[i] != nil || results[i].SHA256 != sum(exe) {
			t.Fatalf("caller %d: %+v, %v", i, results[i], errs[i])
		}
	}
	if n := s.computed.Load(); n != 1 {
		t.Fatalf("%d callers computed the facts %d times, want once", callers, n)
	}
}

// settledFirstInstaller is a directory with one installer, "first", last
// modified an hour ago and already read once through s.
func settledFirstInstaller(t *testing.T) (dir string, s *Installers, path string, stamp time.Time) {
	t.Helper()
	dir = t.TempDir()
	s = NewInstallers(dir, false)
	path = downloadstest.WriteInstaller(t, dir, "A-Setup-1.0.0.exe", []byte("first"))
	stamp = time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(path, stamp, stamp); err != nil {
		t.Fatal(err)
	}
	if inst, err := s.Latest(); err != nil || inst.SHA256 != sum([]byte("first")) {
		t.Fatalf("first = %+v, %v", inst, err)
	}
	return dir, s, path, stamp
}
