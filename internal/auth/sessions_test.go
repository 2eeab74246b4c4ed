package auth

import (
	"context"
	"errors"
	"testing"
	"time"
)

// Issue 25, item 7: a session ends after its idle bound without a request
// (7 days; 8 hours for staff), each request renews it, and none outlives
// 30 days from sign-in.
func TestSessionsEndWhenIdle(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	t0 := time.Now().Truncate(time.Second)
	day := 24 * time.Hour
	live := func(token string, at time.Time) bool {
		t.Helper()
		_, err := f.store.Session(ctx, token, at)
		if err != nil && !errors.Is(err, ErrNoSession) {
			t.Fatal(err)
		}
		return err == nil
	}
	start := func() string {
		t.Helper()
		token, err := f.store.CreateSession(ctx, f.pool, f.account, t0)
		if err != nil {
			t.Fatal(err)
		}
		return token
	}

	busy := start()
	for _, at := range []time.Duration{6 * day, 12 * day, 18 * day, 24 * day} { // a request every 6 days
		if !live(busy, t0.Add(at)) {
			t.Fatalf("a session used every 6 days ended at day %v", at/day)
		}
	}
	if live(busy, t0.Add(30*day+time.Minute)) {
		t.Fatal("a busy session outlived 30 days from sign-in")
	}

	idle := start()
	if !live(idle, t0.Add(3*day)) {
		t.Fatal("a session ended after 3 idle days")
	}
	if live(idle, t0.Add(10*day+time.Minute)) {
		t.Fatal("a session lived through 7 idle days")
	}

	// A session started before this rule (30 days fixed) gets the idle bound
	// at its next request.
	old := start()
	if _, err := f.pool.Exec(ctx, `UPDATE sessions SET expires_at = created_at + interval '30 days' WHERE token_hash = $1`, HashToken(old)); err != nil {
		t.Fatal(err)
	}
	if !live(old, t0.Add(time.Hour)) || live(old, t0.Add(time.Hour+7*day+time.Minute)) {
		t.Fatal("an old 30-day session did not get the 7-day idle bound")
	}
}

func TestStaffSessionsEndAfterEightIdleHours(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if err := f.store.SetStaff(ctx, "seller@example.com", true); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now().Truncate(time.Second)
	token, err := f.store.CreateSession(ctx, f.pool, f.account, t0)
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []time.Duration{7 * time.Hour, 14 * time.Hour} {
		if s, err := f.store.Session(ctx, token, t0.Add(at)); err != nil || !s.IsStaff {
			t.Fatalf("staff session after 7 idle hours = %+v, %v", s, err)
		}
	}
	if _, err := f.store.Session(ctx, token, t0.Add(22*time.Hour+time.Minute)); !errors.Is(err, ErrNoSession) {
		t.Fatalf("a staff session lived through 8 idle hours: %v", err)
	}

	// Made staff with a seller's session open: the 8 hours apply at once.
	seller := f.addUser(t, "other@example.com", "s3cret-password")
	now := time.Now()
	token, err = f.store.CreateSession(ctx, f.pool, seller, now)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.store.SetStaff(ctx, "other@example.com", true); err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.Session(ctx, token, now.Add(9*time.Hour)); !errors.Is(err, ErrNoSession) {
		t.Fatalf("a session of a new staff member lived through 9 idle hours: %v", err)
	}

	// The bounds are configurable.
	short := f.store.WithSessionPolicy(SessionPolicy{Lifetime: SessionTTL, Idle: time.Hour, StaffIdle: time.Minute})
	token, err = short.CreateSession(ctx, f.pool, seller, now)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := short.Session(ctx, token, now.Add(2*time.Minute)); !errors.Is(err, ErrNoSession) {
		t.Fatalf("StaffIdle of a minute: %v", err)
	}
}
