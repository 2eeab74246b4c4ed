package pgembed

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// DefaultServerUser is the account the server runs as when pgembed runs as
// root (initdb and postgres refuse to run as root). PGEMBED_USER overrides it.
const DefaultServerUser = "nobody"

// account is the user the PostgreSQL programs run as.
type account struct {
	uid, gid uint32
	name     string
	self     bool // the current user: no credential switch
}

func (a account) String() string {
	if a.name != "" {
		return a.name
	}
	return strconv.FormatUint(uint64(a.uid), 10)
}

// serverAccount decides who runs the server for dataDir: the current user
// unless that is root; as root, the owner of an existing data directory if
// that is not root, else PGEMBED_USER or "nobody".
func serverAccount(dataDir string) (account, error) {
	if os.Geteuid() != 0 {
		a := account{uid: uint32(os.Geteuid()), gid: uint32(os.Getegid()), self: true}
		if u, err := user.Current(); err == nil {
			a.name = u.Username
		}
		return a, nil
	}
	if st, err := os.Stat(dataDir); err == nil {
		if sys, ok := st.Sys().(*syscall.Stat_t); ok && sys.Uid != 0 {
			a := account{uid: sys.Uid, gid: sys.Gid}
			if u, err := user.LookupId(strconv.FormatUint(uint64(sys.Uid), 10)); err == nil {
				a.name = u.Username
			}
			return a, nil
		}
	}
	name := os.Getenv("PGEMBED_USER")
	if name == "" {
		name = DefaultServerUser
	}
	u, err := user.Lookup(name)
	if err != nil {
		return account{}, fmt.Errorf("pgembed: running as root, so PostgreSQL must run as an unprivileged user, but user %q cannot be found (set PGEMBED_USER): %w", name, err)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err1 != nil || err2 != nil || uid == 0 {
		return account{}, fmt.Errorf("pgembed: user %q (uid %s) cannot run PostgreSQL", name, u.Uid)
	}
	return account{uid: uint32(uid), gid: uint32(gid), name: name}, nil
}

// command builds an exec.Cmd that runs as a, with a neutral environment.
func (a account) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = "/" // the working directory of the caller may not be readable by a
	env := []string{"LC_ALL=C"}
	for _, kv := range os.Environ() {
		// PGDATA, PGPORT, PGHOST... would change what the programs do.
		if strings.HasPrefix(kv, "PG") || strings.HasPrefix(kv, "LC_") || strings.HasPrefix(kv, "LANG=") {
			continue
		}
		env = append(env, kv)
	}
	cmd.Env = env
	if !a.self {
		cmd.SysProcAttr = &syscall.SysProcAttr{
			Credential: &syscall.Credential{Uid: a.uid, Gid: a.gid, Groups: []uint32{}},
		}
	}
	return cmd
}

// chown gives path to a (no-op when running as a).
func (a account) chown(path string) error {
	if a.self {
		return nil
	}
	return os.Lchown(path, int(a.uid), int(a.gid))
}

// chownTree gives every file under dir to a if dir is not a's yet.
func (a account) chownTree(dir string) error {
	if a.self {
		return nil
	}
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && sys.Uid == a.uid {
		return nil
	}
	return filepath.WalkDir(dir, func(p string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return a.chown(p)
	})
}

// checkReachable verifies that a can traverse every directory above path, so
// that a server running as another user than ours can reach it.
func (a account) checkReachable(path, what string) error {
	if a.self {
		return nil
	}
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		st, err := os.Stat(dir)
		if err != nil {
			return err
		}
		if !a.canSearch(st) {
			return fmt.Errorf("pgembed: running as root, PostgreSQL runs as user %s, which cannot reach the %s %s "+
				"because directory %s has mode %v; make it traversable (chmod o+x %s), move the checkout, "+
				"run as a non-root user, or provide a database URL instead", a, what, path, dir, st.Mode().Perm(), dir)
		}
		if parent := filepath.Dir(dir); parent == dir {
			return nil
		}
	}
}

func (a account) canSearch(st fs.FileInfo) bool {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return true
	}
	perm := st.Mode().Perm()
	switch {
	case sys.Uid == a.uid:
		return perm&0o100 != 0
	case sys.Gid == a.gid:
		return perm&0o010 != 0
	default:
		return perm&0o001 != 0
	}
}
