// Package smtptest is a real SMTP server for tests (no TLS) that a test can
// make misbehave as a neighbour does: answering, silent (it accepts the
// connection and never says a word) or down (connections refused), always
// on the same address.
package smtptest

import (
	"bufio"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
)

// Modes of the server.
const (
	Up     = "up"
	Silent = "silent"
	Down   = "down"
	Reject = "reject" // answers, and refuses every recipient for good (550)
)

// Server is an SMTP server on 127.0.0.1 that keeps each message it accepted.
type Server struct {
	t    testing.TB
	addr string

	mu    sync.Mutex
	mode  string
	ln    net.Listener
	conns map[net.Conn]bool
	data  []string
}

// Start starts an answering server, stopped when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{t: t, addr: ln.Addr().String(), mode: Up, conns: map[net.Conn]bool{}}
	s.serve(ln)
	t.Cleanup(func() { s.Set(Down) })
	return s
}

// URL is the server's SMTP_URL.
func (s *Server) URL() string { return "smtp://" + s.addr + "?tls=none" }

// Set switches the server to mode. Leaving Silent or going Down drops the
// connections it holds; coming back from Down listens on the same address.
func (s *Server) Set(mode string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if mode == s.mode {
		return
	}
	for c := range s.conns {
		_ = c.Close()
		delete(s.conns, c)
	}
	switch {
	case mode == Down && s.ln != nil:
		_ = s.ln.Close()
		s.ln = nil
	case mode != Down && s.ln == nil:
		ln, err := net.Listen("tcp", s.addr)
		if err != nil {
			s.t.Errorf("smtptest: listen again on %s: %v", s.addr, err)
			return
		}
		s.serveLocked(ln)
	}
	s.mode = mode
}

// Messages are the messages accepted so far, each its DATA.
func (s *Server) Messages() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.data...)
}

// To are the accepted messages addressed to rcpt.
func (s *Server) To(rcpt string) []string {
	var out []string
	for _, m := range s.Messages() {
		if strings.Contains(m, "To: <"+rcpt+">") {
			out = append(out, m)
		}
	}
	return out
}

func (s *Server) serve(ln net.Listener) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.serveLocked(ln)
}

func (s *Server) serveLocked(ln net.Listener) {
	s.ln = ln
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns[conn] = true
			silent := s.mode == Silent
			s.mu.Unlock()
			if !silent {
				go s.talk(conn)
			}
		}
	}()
}

func (s *Server) talk(conn net.Conn) {
	defer func() {
		s.mu.Lock()
		delete(s.conns, conn)
		s.mu.Unlock()
		_ = conn.Close()
	}()
	r := bufio.NewReader(conn)
	say := func(line string) { _, _ = io.WriteString(conn, line+"\r\n") }
	say("220 smtptest ESMTP")
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		switch cmd := strings.ToUpper(strings.Fields(line + " x")[0]); cmd {
		case "EHLO", "HELO":
			say("250-smtptest")
			say("250 8BITMIME")
		case "DATA":
			say("354 go ahead")
			var msg strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				msg.WriteString(l)
			}
			s.mu.Lock()
			s.data = append(s.data, msg.String())
			s.mu.Unlock()
			say("250 queued")
		case "RCPT":
			s.mu.Lock()
			reject := s.mode == Reject
			s.mu.Unlock()
			if reject {
				say("550 5.1.1 no such mailbox")
			} else {
				say("250 ok")
			}
		case "QUIT":
			say("221 bye")
			return
		default:
			say("250 ok")
		}
	}
}
