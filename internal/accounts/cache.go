package accounts

import (
	"container/list"
	"sync"
	"sync/atomic"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
)

// accountCache keeps, per account, the account a spend of this process
// left once its command committed (domain.Account.Stored), with the head
// that command wrote (its version and token, eventstore.Head), so that the
// next spend's decider takes it instead of decoding the head's snapshot
// (issue 36: the decoding was 2.7–4.9 % of bin/api's CPU and 10–16 % of
// its allocated bytes), and so that the next spend is not even sent the
// snapshot: it carries the head as UpdateOptions.Known, and the lock query
// returns the snapshot only when the head is another (issue 36, eighth
// session).
//
// It is a memo of the stream's history up to that head, never a second
// source of truth: an entry serves only a head at its version with its
// token. Every write of a head draws a fresh random token (migration
// 00038), so anything else that moved the head — another process, Update's
// commands, Append, a failover that lost the commit and another history
// that reached the version again — left another token or version there,
// and the entry is dropped. A head written by a binary from before the
// token moves its version and keeps the token it found (the entry's
// version no longer matches) or, writing no event, rewrites a state that
// is still its history's (domain's snapshots and the states they were
// taken of are interchangeable: domain's driver checks it after every
// command).
//
// An entry is taken out to be used (take): the decider that holds it is
// its only user and may change it; a command that does not commit, or
// whose outcome is unknown, never puts it back. So no account object is
// ever seen by two commands, whatever runs them (the Batcher runs a stream
// in at most one batch at a time; Update's commands do not use the cache).
//
// Bounded by the bytes of the accounts' last snapshots (the capacity of
// the one the entry's account was decoded from or last wrote: a spend on
// a cached account writes one only every snapshotEvery versions), the
// oldest entries put first out. The decoded accounts beside them are not
// counted (see defaultCacheBytes).
type accountCache struct {
	mu       sync.Mutex
	entries  map[string]*list.Element // of *cachedAccount, by stream
	order    list.List                // front: most recently put
	bytes    int                      // the entries' weights, summed
	maxBytes int

	// Counted per decider run of a spend (a retried or regrouped spend
	// counts once per run): a hit took a kept account; a miss decoded the
	// head's snapshot, or its whole stream when it had none.
	hits, misses atomic.Int64
}

type cachedAccount struct {
	stream string
	a      *domain.Account // at version head.Version, no pending changes
	head   eventstore.Head // the head the command that left a wrote
	weight int             // the capacity of a's last snapshot's bytes
}

// defaultCacheBytes bounds the cache: 8 MiB of snapshot arrays (each at
// least the encoder's 1 KiB, so ~8,000 of bench-load's 0.86 kB accounts).
// The heap it really holds is more: each entry's decoded domain.Account
// (its maps and slices, a few times its snapshot's length) and its map and
// list entries, tens of MiB at the bound, which is not measured here.
const defaultCacheBytes = 8 << 20

// maxCachedSnapshot is the largest snapshot kept: an account that large is
// rare and would push many out.
const maxCachedSnapshot = 256 << 10

func newAccountCache(maxBytes int) *accountCache {
	return &accountCache{entries: map[string]*list.Element{}, maxBytes: maxBytes}
}

// known is the head stream's entry was put with (zero: no entry), for the
// command to carry as UpdateOptions.Known. It takes nothing: the entry is
// taken, and checked again, by the command's decider.
func (c *accountCache) known(stream string) eventstore.Head {
	if c == nil {
		return eventstore.Head{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[stream]; ok {
		return e.Value.(*cachedAccount).head
	}
	return eventstore.Head{}
}

// take removes stream's entry and returns its account and weight when it
// was put with head: the caller owns it. Any other entry of stream is
// stale and dropped. A zero token (a head without one) matches nothing.
func (c *accountCache) take(stream string, head eventstore.Head) (*domain.Account, int) {
	if c == nil {
		return nil, 0
	}
	c.mu.Lock()
	e, ok := c.entries[stream]
	if !ok {
		c.mu.Unlock()
		c.misses.Add(1)
		return nil, 0
	}
	ca := c.remove(e)
	c.mu.Unlock()
	if head.Token == 0 || ca.head != head {
		c.misses.Add(1)
		return nil, 0
	}
	c.hits.Add(1)
	return ca.a, ca.weight
}

// put keeps a, which must have no pending changes and which the caller
// hands over, as the state the write of head left; weight is the capacity
// of its last snapshot's bytes.
func (c *accountCache) put(stream string, a *domain.Account, head eventstore.Head, weight int) {
	// weight 0 would be a bug (every entry starts from a spend that wrote a
	// snapshot): kept, such entries would escape the bound.
	if c == nil || head.Token == 0 || weight <= 0 || weight > maxCachedSnapshot || weight > c.maxBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[stream]; ok {
		c.remove(e)
	}
	c.entries[stream] = c.order.PushFront(&cachedAccount{stream: stream, a: a, head: head, weight: weight})
	c.bytes += weight
	for c.bytes > c.maxBytes {
		c.remove(c.order.Back())
	}
}

// remove drops e; c.mu is held.
func (c *accountCache) remove(e *list.Element) *cachedAccount {
	ca := c.order.Remove(e).(*cachedAccount)
	delete(c.entries, ca.stream)
	c.bytes -= ca.weight
	return ca
}

// miss counts a decider run that decoded its account without looking in
// the cache.
func (c *accountCache) miss() {
	if c != nil {
		c.misses.Add(1)
	}
}

// len is the number of entries.
func (c *accountCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}
