package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/a2e-automation/app/internal/auth"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/pgpool"
	"github.com/a2e-automation/app/internal/startup"
)

// staffCommand runs `api staff add|remove EMAIL`: it makes an existing
// account support staff, or undoes it.
func staffCommand(ctx context.Context, cfg config.Config, log *slog.Logger, args []string, stdout io.Writer) error {
	if len(args) != 2 || (args[0] != "add" && args[0] != "remove") {
		return errors.New("usage: api staff add|remove EMAIL")
	}
	db, err := startup.OpenDatabase(ctx, cfg, log, pgpool.Options{MaxConns: 2, AppName: "a2e-staff-command"})
	if err != nil {
		return err
	}
	defer db.Close()
	if err := auth.NewStore(db.Pool, cfg.Secret).WithSessionPolicy(sessionPolicy(cfg)).SetStaff(ctx, args[1], args[0] == "add"); err != nil {
		if errors.Is(err, auth.ErrNoSuchUser) {
			return fmt.Errorf("staff %s: no account has the email %q", args[0], args[1])
		}
		return err
	}
	if args[0] == "add" {
		fmt.Fprintf(stdout, "%s is now staff\n", args[1])
	} else {
		fmt.Fprintf(stdout, "%s is no longer staff\n", args[1])
	}
	return nil
}
