// Command devdb ensures a private PostgreSQL server is running and prints its
// URL, or stops it.
//
//	go run ./cmd/devdb [-data DIR] [-fast=false]   # prints the URL, leaves the server running
//	go run ./cmd/devdb [-data DIR] -stop           # stops it
//
// DIR defaults to .data/testpg under the repository root (the server the
// integration tests use). stdout carries only the URL; messages go to stderr.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/a2e-automation/app/internal/pgembed"
)

func main() {
	data := flag.String("data", "", "data directory (default <repo>/.data/testpg)")
	stop := flag.Bool("stop", false, "stop the server instead of starting it")
	fast := flag.Bool("fast", true, "when starting: turn off fsync etc. (throwaway data)")
	verbose := flag.Bool("v", false, "log progress to stderr")
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "devdb: unexpected arguments:", flag.Args())
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*data, *stop, *fast, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "devdb:", err)
		os.Exit(1)
	}
}

func run(data string, stop, fast, verbose bool) error {
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
	srv, err := pgembed.Start(ctx, pgembed.Options{DataDir: data, Logger: logger, Fast: fast})
	if err != nil {
		return err
	}
	fmt.Println(srv.URL())
	return nil
}
