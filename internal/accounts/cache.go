package accounts

import (
	"bytes"
	"container/list"
	"sync"
	"sync/atomic"

	"github.com/a2e-automation/app/domain"
)

// accountCache keeps, per account, the account a spend of this process
// left once its command committed (domain.Account.Stored), with the
// snapshot that command wrote, so that the next spend's decider takes it
// instead of decoding the head's snapshot again (issue 36: the decoding was
// 2.7–4.9 % of bin/api's CPU and 10–16 % of its allocated bytes).
//
// It is a memo of domain.RestoreSnapshot, never a second source of truth:
// an entry serves only a head whose snapshot is byte for byte the one it
// was put with, at the same state version. Anything else that moved the
// head — another process, Update's commands, a binary of another version,
// a failover that lost the commit — left other bytes or another version
// there, and the entry is dropped. The domain keeps a snapshot's state and
// the state it was taken of interchangeable (domain's driver checks that a
// restored account's snapshot is the same bytes after every command).
//
// An entry is taken out to be used (take): the decider that holds it is
// its only user and may change it; a command that does not commit, or
// whose outcome is unknown, never puts it back. So no account object is
// ever seen by two commands, whatever runs them (the Batcher runs a stream
// in at most one batch at a time; Update's commands do not use the cache).
//
// Bounded by the bytes its snapshots' arrays hold (their capacity, not
// their length: domain's encoder starts at 1 KiB), the oldest entries put
// first out. The decoded accounts beside them are not counted (see
// defaultCacheBytes).
type accountCache struct {
	mu       sync.Mutex
	entries  map[string]*list.Element // of *cachedAccount, by stream
	order    list.List                // front: most recently put
	bytes    int                      // the entries' snapshots' capacities, summed
	maxBytes int

	// Counted per decider run of a spend (a retried or regrouped spend
	// counts once per run): a hit took a kept account; a miss decoded the
	// head's snapshot, or its whole stream when it had none.
	hits, misses atomic.Int64
}

type cachedAccount struct {
	stream       string
	a            *domain.Account // at version stateVersion, no pending changes
	stateVersion int64
	state        []byte // the snapshot a was stored as
}

// defaultCacheBytes bounds the cache: 8 MiB of snapshot arrays (each at
// least the encoder's 1 KiB, so ~8,000 of bench-load's 0.86 kB accounts).
// The heap it really holds is more: those arrays plus each entry's decoded
// domain.Account (its maps and slices, a few times its snapshot's length)
// and its map and list entries, tens of MiB at the bound, which is not
// measured here.
const defaultCacheBytes = 8 << 20

// maxCachedSnapshot is the largest snapshot kept: an account that large is
// rare and would push many out.
const maxCachedSnapshot = 256 << 10

func newAccountCache(maxBytes int) *accountCache {
	return &accountCache{entries: map[string]*list.Element{}, maxBytes: maxBytes}
}

// take removes stream's entry and returns its account when it was stored
// as state at stateVersion: the caller owns it. Any other entry of stream
// is stale and dropped.
func (c *accountCache) take(stream string, stateVersion int64, state []byte) *domain.Account {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	e, ok := c.entries[stream]
	if !ok {
		c.mu.Unlock()
		c.misses.Add(1)
		return nil
	}
	ca := c.remove(e)
	c.mu.Unlock()
	if ca.stateVersion != stateVersion || !bytes.Equal(ca.state, state) {
		c.misses.Add(1)
		return nil
	}
	c.hits.Add(1)
	return ca.a
}

// put keeps a, which must have no pending changes and which the caller
// hands over, as stored at its version as state.
func (c *accountCache) put(stream string, a *domain.Account, state []byte) {
	if c == nil || cap(state) > maxCachedSnapshot || cap(state) > c.maxBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.entries[stream]; ok {
		c.remove(e)
	}
	c.entries[stream] = c.order.PushFront(&cachedAccount{stream: stream, a: a, stateVersion: a.Version(), state: state})
	c.bytes += cap(state)
	for c.bytes > c.maxBytes {
		c.remove(c.order.Back())
	}
}

// remove drops e; c.mu is held.
func (c *accountCache) remove(e *list.Element) *cachedAccount {
	ca := c.order.Remove(e).(*cachedAccount)
	delete(c.entries, ca.stream)
	c.bytes -= cap(ca.state)
	return ca
}

// miss counts a decider run that decoded its account without looking in
// the cache (the head has no snapshot: the whole stream is replayed).
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
