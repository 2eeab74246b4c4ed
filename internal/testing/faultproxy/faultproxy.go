// Package faultproxy puts a TCP proxy in front of a real server (stripe-mock,
// PostgreSQL) so a test can make that neighbour misbehave as it does in
// production: answering (traffic passes), silent (connections are accepted
// and nothing ever comes back), frozen (every connection, open or new, stays
// open and nothing moves, as with a stalled server) or down (connections
// refused), always on the same address. In front of PostgreSQL it can also
// cut a transaction's connection at its COMMIT (mode Postgres, CutCommit).
package faultproxy

import (
	"io"
	"net"
	"sync"
	"testing"
)

// Modes of the proxy.
const (
	Up     = "up"
	Silent = "silent"
	Frozen = "frozen"
	Down   = "down"
	// Postgres is Up for PostgreSQL: the client's side of each connection
	// opened in this mode is read message by message, so that CutCommit can
	// cut a transaction at its COMMIT. The connections must be plaintext
	// (sslmode=disable); any other traffic passes untouched.
	Postgres = "postgres"
)

// Proxy forwards 127.0.0.1:port to a target address.
type Proxy struct {
	t      testing.TB
	addr   string
	target string

	mu     sync.Mutex
	mode   string
	ln     net.Listener
	conns  map[net.Conn]bool
	thawed *sync.Cond // signalled when the proxy leaves Frozen
	cut    *commitCut // armed by CutCommit, until made or the mode changes
}

// Start proxies to target, stopped when the test ends.
func Start(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{t: t, addr: ln.Addr().String(), target: target, mode: Up, conns: map[net.Conn]bool{}}
	p.thawed = sync.NewCond(&p.mu)
	p.mu.Lock()
	p.accept(ln)
	p.mu.Unlock()
	t.Cleanup(func() { p.Set(Down) })
	return p
}

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return p.addr }

// Set switches the proxy to mode. Freezing and thawing keep the open
// connections; any other change drops them.
func (p *Proxy) Set(mode string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if mode == p.mode {
		return
	}
	if p.mode == Frozen {
		defer p.thawed.Broadcast()
	}
	if mode == Frozen || (p.mode == Frozen && mode == Up) {
		p.mode = mode
		return
	}
	for c := range p.conns {
		_ = c.Close()
		delete(p.conns, c)
	}
	p.cut = nil
	switch {
	case mode == Down && p.ln != nil:
		_ = p.ln.Close()
		p.ln = nil
	case mode != Down && p.ln == nil:
		ln, err := net.Listen("tcp", p.addr)
		if err != nil {
			p.t.Errorf("faultproxy: listen again on %s: %v", p.addr, err)
			return
		}
		p.accept(ln)
	}
	p.mode = mode
}

func (p *Proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln == nil {
		return false
	}
	p.conns[c] = true
	return true
}

func (p *Proxy) accept(ln net.Listener) {
	p.ln = ln
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if !p.track(c) {
				_ = c.Close()
				continue
			}
			p.mu.Lock()
			mode := p.mode
			p.mu.Unlock()
			if mode == Silent {
				continue // held open, never answered, until the mode changes
			}
			go p.forward(c, mode == Postgres)
		}
	}()
}

// forward relays c to a new connection to the target, reading the client's
// side as PostgreSQL messages when wire is set.
func (p *Proxy) forward(c net.Conn, wire bool) {
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		_ = c.Close()
		return
	}
	if !p.track(up) {
		_ = c.Close()
		_ = up.Close()
		return
	}
	if wire {
		p.forwardPostgres(c, up)
		return
	}
	go func() { p.copy(up, c, nil); _ = up.Close() }()
	p.copy(c, up, nil)
	_ = c.Close()
}

// copy moves bytes from src to dst, holding each chunk while the proxy is
// frozen, until either side ends or pass (when not nil) refuses a chunk.
func (p *Proxy) copy(dst io.Writer, src io.Reader, pass func() bool) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.waitThawed()
			if pass != nil && !pass() {
				return
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// waitThawed returns once the proxy is not frozen.
func (p *Proxy) waitThawed() {
	p.mu.Lock()
	for p.mode == Frozen {
		p.thawed.Wait()
	}
	p.mu.Unlock()
}
