// Command devdb ensures a private PostgreSQL server is running and prints its
// URL, or stops it.
//
//	go run ./cmd/devdb [-data DIR] [-fast=false]   # prints the URL, leaves the server running
//	go run ./cmd/devdb [-data DIR] -stop           # stops it
//	go run ./cmd/devdb [-data DIR] -create NAME    # creates an empty database, prints its URL
//
// DIR defaults to .data/testpg under the repository root (the server the
// integration tests use). stdout carries only the URL; messages go to stderr.
//
// -create makes the empty database NAME on the server of TEST_DATABASE_URL
// when set, else on the private server (started if need be). The browser
// journeys (webapp/e2e) run the real API on such a database, which migrates
// it at start-up. Databases made by -create are marked with a comment, and
// each -create drops the marked ones older than an hour: runs that ended
// without cleaning up leave nothing behind for long.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/internal/pgembed"
	"github.com/a2e-automation/app/internal/pgpool"
)

func main() {
	data := flag.String("data", "", "data directory (default <repo>/.data/testpg)")
	stop := flag.Bool("stop", false, "stop the server instead of starting it")
	fast := flag.Bool("fast", true, "when starting: turn off fsync etc. (throwaway data)")
	verbose := flag.Bool("v", false, "log progress to stderr")
	create := flag.String("create", "", "create the empty database `NAME` on TEST_DATABASE_URL's server (else the private one) and print its URL")
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "devdb: unexpected arguments:", flag.Args())
		flag.Usage()
		os.Exit(2)
	}
	if *stop && *create != "" {
		fmt.Fprintln(os.Stderr, "devdb: -stop and -create exclude each other")
		os.Exit(2)
	}
	if err := run(*data, *stop, *fast, *verbose, *create); err != nil {
		fmt.Fprintln(os.Stderr, "devdb:", err)
		os.Exit(1)
	}
}

func run(data string, stop, fast, verbose bool, create string) error {
	if data == "" {
		root, err := pgembed.RepoRoot()
		if err != nil {
			return fmt.Errorf("find the repository root (use -data): %w", err)
		}
		data = filepath.Join(root, ".data", "testpg")
	}
	level := slog.LevelWarn
	if verbose {
		level = slog.LevelDebug
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if stop {
		return pgembed.StopDir(ctx, data, logger)
	}
	admin := ""
	if create != "" {
		admin = os.Getenv("TEST_DATABASE_URL")
	}
	if admin == "" {
		srv, err := pgembed.Start(ctx, pgembed.Options{DataDir: data, Logger: logger, Fast: fast})
		if err != nil {
			return err
		}
		admin = srv.URL()
	}
	if create == "" {
		fmt.Println(admin)
		return nil
	}
	dbURL, err := createDatabase(ctx, admin, create)
	if err != nil {
		return err
	}
	fmt.Println(dbURL)
	return nil
}

var databaseName = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// createMark prefixes the comment on databases made by -create; the Unix
// time of the creation follows it.
const createMark = "devdb -create "

// createAfterStale is the age after which a database made by -create is
// dropped by the next -create.
const createAfterStale = time.Hour

// createDatabase makes the empty database name on the server of admin and
// returns its URL.
func createDatabase(ctx context.Context, admin, name string) (string, error) {
	if !databaseName.MatchString(name) {
		return "", fmt.Errorf("-create %q: want lower-case letters, digits and underscores", name)
	}
	dbURL, err := pgpool.WithDatabase(admin, name)
	if err != nil {
		return "", err
	}
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return "", fmt.Errorf("connect to %s: %w", pgpool.Redact(admin), err)
	}
	defer conn.Close(context.Background())
	dropStale(ctx, conn)
	ident := pgx.Identifier{name}.Sanitize()
	for _, sql := range []string{
		fmt.Sprintf("CREATE DATABASE %s TEMPLATE template0 ENCODING 'UTF8'", ident),
		fmt.Sprintf("COMMENT ON DATABASE %s IS '%s%d'", ident, createMark, time.Now().Unix()),
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			return "", fmt.Errorf("%s: %w", sql, err)
		}
	}
	return dbURL, nil
}

// dropStale drops the databases made by earlier -create calls more than
// createAfterStale ago. Best effort: a failure is reported and ignored.
func dropStale(ctx context.Context, conn *pgx.Conn) {
	rows, err := conn.Query(ctx, `SELECT datname, shobj_description(oid, 'pg_database') FROM pg_database
		WHERE shobj_description(oid, 'pg_database') LIKE $1`, createMark+"%")
	if err != nil {
		fmt.Fprintln(os.Stderr, "devdb: list earlier databases:", err)
		return
	}
	stale := []string{}
	var name, comment string
	_, err = pgx.ForEachRow(rows, []any{&name, &comment}, func() error {
		sec, err := strconv.ParseInt(strings.TrimPrefix(comment, createMark), 10, 64)
		if err == nil && time.Since(time.Unix(sec, 0)) > createAfterStale {
			stale = append(stale, name)
		}
		return nil
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "devdb: list earlier databases:", err)
		return
	}
	for _, name := range stale {
		sql := fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", pgx.Identifier{name}.Sanitize())
		if _, err := conn.Exec(ctx, sql); err != nil {
			fmt.Fprintf(os.Stderr, "devdb: %s: %v\n", sql, err)
		}
	}
}
