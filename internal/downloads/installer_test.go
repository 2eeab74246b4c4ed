package downloads

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/a2e-automation/app/internal/downloads/downloadstest"
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
	dir := t.TempDir()
	s := NewInstallers(dir, false)
	path := downloadstest.WriteInstaller(t, dir, "A-Setup-1.0.0.exe", []byte("first"))
	stamp := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(path, stamp, stamp); err != nil {
		t.Fatal(err)
	}
	if inst, err := s.Latest(); err != nil || inst.SHA256 != sum([]byte("first")) {
		t.Fatalf("first = %+v, %v", inst, err)
	}

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
