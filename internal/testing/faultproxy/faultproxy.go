// Package faultproxy puts a TCP proxy in front of a real server (stripe-mock,
// PostgreSQL) so a test can make that neighbour misbehave as it does in
// production: answering (traffic passes), silent (connections are accepted
// and nothing ever comes back), frozen (every connection, open or new, stays
// open and nothing moves, as with a stalled server) or down (connections
// refused), always on the same address.
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
			go p.forward(c)
		}
	}()
}

func (p *Proxy) forward(c net.Conn) {
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
	go func() { p.copy(up, c); _ = up.Close() }()
	p.copy(c, up)
	_ = c.Close()
}

// copy moves bytes from src to dst, holding each chunk while the proxy is
// frozen.
func (p *Proxy) copy(dst io.Writer, src io.Reader) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.mu.Lock()
			for p.mode == Frozen {
				p.thawed.Wait()
			}
			p.mu.Unlock()
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}
