package command

import (
	"context"
	"errors"
	"testing"

	"github.com/a2e-automation/app/internal/apikeys"
	"github.com/a2e-automation/app/internal/auth"
)

func TestRotateAPIKeyReplacesTheKeyEverywhere(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	r := e.register("rotate@example.com")
	ctx := context.Background()
	got, err := e.cmd.RotateAPIKey.Handle(ctx, RotateAPIKey{AccountID: r.AccountID})
	if err != nil {
		t.Fatal(err)
	}
	if !apikeys.LooksValid(got.APIKey) || got.APIKey == r.APIKey {
		t.Fatalf("new key %q (old %q)", got.APIKey, r.APIKey)
	}
	if n := e.events(r.AccountID)["APIKeyRotated"]; n != 1 {
		t.Fatalf("%d APIKeyRotated events", n)
	}
	if a := e.account(r.AccountID); a.APIKeyHash() != apikeys.Hash(got.APIKey) {
		t.Fatal("the account's key is not the new one")
	}
	if id, err := e.auth.AccountForAPIKey(ctx, apikeys.Hash(got.APIKey)); err != nil || id != r.AccountID {
		t.Fatalf("the new key resolves to %q, %v", id, err)
	}
	if _, err := e.auth.AccountForAPIKey(ctx, apikeys.Hash(r.APIKey)); !errors.Is(err, auth.ErrUnknownAPIKey) {
		t.Fatalf("the old key: %v, want ErrUnknownAPIKey", err)
	}
}

func TestRotateAPIKeyOfAnUnknownAccount(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, err := e.cmd.RotateAPIKey.Handle(context.Background(), RotateAPIKey{AccountID: "00000000-0000-4000-8000-000000000000"})
	if err == nil {
		t.Fatal("rotated the key of no account")
	}
	if n := e.count(`SELECT count(*) FROM api_keys`); n != 0 {
		t.Fatalf("%d api_keys rows", n)
	}
}
