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

// staffCommand runs `api staff add|remove|reset-mfa EMAIL`: it makes an
// existing account support staff, undoes it, or removes a staff member's
// second factor (a lost device; their sessions end and the next sign-in
// enrols again).
func staffCommand(ctx context.Context, cfg config.Config, log *slog.Logger, args []string, stdout io.Writer) error {
	if len(args) != 2 || (args[0] != "add" && args[0] != "remove" && args[0] != "reset-mfa") {
		return errors.New("usage: api staff add|remove|reset-mfa EMAIL")
	}
	db, err := startup.OpenDatabase(ctx, cfg, log, pgpool.Options{MaxConns: 2, AppName: "a2e-staff-command"})
	if err != nil {
		return err
	}
	defer db.Close()
	store := auth.NewStore(db.Pool, cfg.Secret).WithSessionPolicy(sessionPolicy(cfg))
	if args[0] == "reset-mfa" {
		err = store.ResetMFA(ctx, args[1])
	} else {
		err = store.SetStaff(ctx, args[1], args[0] == "add")
	}
	if err != nil {
		if errors.Is(err, auth.ErrNoSuchUser) {
			return fmt.Errorf("staff %s: no account has the email %q", args[0], args[1])
		}
		return err
	}
	switch args[0] {
	case "add":
		fmt.Fprintf(stdout, "%s is now staff\n", args[1])
	case "remove":
		fmt.Fprintf(stdout, "%s is no longer staff\n", args[1])
	default:
		log.Info("staff second factor reset", "email", args[1])
		fmt.Fprintf(stdout, "%s has no second factor now and is signed out everywhere; the next sign-in sets up a new one\n", args[1])
	}
	return nil
}
