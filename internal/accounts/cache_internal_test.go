package accounts

import (
	"fmt"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
)

func cacheTestAccount(t *testing.T, id string) (*domain.Account, []byte) {
	t.Helper()
	a, err := domain.Register(id, id+"@example.com", domain.APIKeyMaterial{KeyID: "k", Prefix: "p", Hash: "h", Encrypted: "e"}, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	state, err := a.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	a.Stored()
	return a, state
}

// An entry is handed out once, and only for the snapshot it was put with
// at its version; any other look drops it.
func TestAccountCacheTakesOnlyTheSameSnapshotOnce(t *testing.T) {
	c := newAccountCache(1 << 20)
	a, state := cacheTestAccount(t, "a")
	if a.Version() != 2 {
		t.Fatalf("version %d after storing two events", a.Version())
	}
	c.put("a", a, state)
	if got := c.take("a", 2, state); got != a {
		t.Fatalf("take = %p, want %p", got, a)
	}
	if got := c.take("a", 2, state); got != nil {
		t.Fatal("an account handed out twice")
	}
	other := append([]byte(nil), state...)
	other[len(other)-2] = ' ' // same length, other bytes
	for _, look := range []struct {
		version int64
		state   []byte
	}{{3, state}, {1, state}, {2, other}, {2, nil}} {
		c.put("a", a, state)
		if got := c.take("a", look.version, look.state); got != nil {
			t.Fatalf("taken for version %d, state %q", look.version, look.state)
		}
		if c.len() != 0 {
			t.Fatal("a stale entry stayed")
		}
	}
	if h, m := c.hits.Load(), c.misses.Load(); h != 1 || m != 5 {
		t.Fatalf("%d hits, %d misses; want 1 and 5", h, m)
	}
}

// The cache holds no more snapshot bytes than its bound, the oldest put
// going first.
func TestAccountCacheIsBounded(t *testing.T) {
	_, state := cacheTestAccount(t, "x")
	c := newAccountCache(10 * cap(state)) // the bound counts capacity
	for i := range 25 {
		id := fmt.Sprint(i)
		a, st := cacheTestAccount(t, id)
		c.put(id, a, st)
		if c.bytes > c.maxBytes {
			t.Fatalf("%d bytes held, bound %d", c.bytes, c.maxBytes)
		}
	}
	if n := c.len(); n < 9 || n > 10 {
		t.Fatalf("%d entries held", n)
	}
	a, st := cacheTestAccount(t, "0")
	_ = a
	if c.take("0", 2, st) != nil {
		t.Fatal("the oldest entry stayed")
	}
	a24, st24 := cacheTestAccount(t, "24")
	_ = a24
	if c.take("24", 2, st24) == nil {
		t.Fatal("the newest entry went")
	}
	c.put("big", a, make([]byte, maxCachedSnapshot+1))
	if c.take("big", 2, make([]byte, maxCachedSnapshot+1)) != nil {
		t.Fatal("a snapshot over maxCachedSnapshot was kept")
	}
}
