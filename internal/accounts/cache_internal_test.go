package accounts

import (
	"fmt"
	"testing"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
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

// An entry is handed out once, and only for the head it was put with (its
// version and token); any other look drops it.
func TestAccountCacheTakesOnlyTheSameSnapshotOnce(t *testing.T) {
	c := newAccountCache(1 << 20)
	a, state := cacheTestAccount(t, "a")
	if a.Version() != 2 {
		t.Fatalf("version %d after storing two events", a.Version())
	}
	head := eventstore.Head{Version: 2, Token: 77}
	c.put("a", a, head, cap(state))
	if c.known("a") != head {
		t.Fatalf("known %v, want %v", c.known("a"), head)
	}
	if got, _ := c.take("a", head); got != a {
		t.Fatalf("take = %p, want %p", got, a)
	}
	if got, _ := c.take("a", head); got != nil {
		t.Fatal("an account handed out twice")
	}
	for _, look := range []eventstore.Head{{Version: 3, Token: 77}, {Version: 1, Token: 77}, {Version: 2, Token: 78}, {Version: 2}} {
		c.put("a", a, head, cap(state))
		if got, _ := c.take("a", look); got != nil {
			t.Fatalf("taken for head %v", look)
		}
		if c.len() != 0 {
			t.Fatal("a stale entry stayed")
		}
	}
	if h, m := c.hits.Load(), c.misses.Load(); h != 1 || m != 5 {
		t.Fatalf("%d hits, %d misses; want 1 and 5", h, m)
	}
}

// The cache holds no more snapshot bytes (its entries' weights) than its
// bound, the oldest put going first.
func TestAccountCacheIsBounded(t *testing.T) {
	_, state := cacheTestAccount(t, "x")
	c := newAccountCache(10 * cap(state)) // the bound counts capacity
	for i := range 25 {
		id := fmt.Sprint(i)
		a, st := cacheTestAccount(t, id)
		c.put(id, a, eventstore.Head{Version: 2, Token: 1}, cap(st))
		if c.bytes > c.maxBytes {
			t.Fatalf("%d bytes held, bound %d", c.bytes, c.maxBytes)
		}
	}
	if n := c.len(); n < 9 || n > 10 {
		t.Fatalf("%d entries held", n)
	}
	a, _ := cacheTestAccount(t, "0")
	if got, _ := c.take("0", eventstore.Head{Version: 2, Token: 1}); got != nil {
		t.Fatal("the oldest entry stayed")
	}
	if got, _ := c.take("24", eventstore.Head{Version: 2, Token: 1}); got == nil {
		t.Fatal("the newest entry went")
	}
	c.put("big", a, eventstore.Head{Version: 2, Token: 1}, maxCachedSnapshot+1)
	if got, _ := c.take("big", eventstore.Head{Version: 2, Token: 1}); got != nil {
		t.Fatal("a snapshot over maxCachedSnapshot was kept")
	}
	c.put("weightless", a, eventstore.Head{Version: 2, Token: 1}, 0)
	if got, _ := c.take("weightless", eventstore.Head{Version: 2, Token: 1}); got != nil {
		t.Fatal("an entry of weight 0 was kept: it would escape the bound")
	}
}
