// Package smtptest is a real SMTP server for tests (no TLS) that a test can
// make misbehave as a neighbour does: answering, silent (it accepts the
// connection and never says a word), down (connections refused) or
// refusing every recipient for good, always on the same address. The
// network faults come from a faultproxy in front of it.
package smtptest

import (
	"bufio"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2e-automation/app/internal/testing/faultproxy"
)

// Modes of the server.
const (
	Up     = faultproxy.Up
	Silent = faultproxy.Silent
	Down   = faultproxy.Down
	Reject = "reject" // answers, and refuses every recipient for good (550)
)

// Server is an SMTP server on 127.0.0.1 that keeps each message it accepted.
type Server struct {
	proxy *faultproxy.Proxy

	mu     sync.Mutex
	reject bool
	delay  time.Duration
	data   []string
}

// Start starts an answering server, stopped when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ln.Close() })
	s := &Server{}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go s.talk(conn)
		}
	}()
	s.proxy = faultproxy.Start(t, ln.Addr().String())
	return s
}

// URL is the server's SMTP_URL.
func (s *Server) URL() string { return "smtp://" + s.proxy.Addr() + "?tls=none" }

// Set switches the server to mode.
func (s *Server) Set(mode string) {
	s.mu.Lock()
	s.reject = mode == Reject
	s.mu.Unlock()
	if mode == Reject {
		mode = Up
	}
	s.proxy.Set(mode)
}

// Delay makes the server keep each message and only then wait d before it
// says so (250), as a server that scans mail does: a client that hangs up
// meanwhile has had its message accepted without knowing it.
func (s *Server) Delay(d time.Duration) {
	s.mu.Lock()
	s.delay = d
	s.mu.Unlock()
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

func (s *Server) talk(conn net.Conn) {
	defer conn.Close()
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
		case "RCPT":
			s.mu.Lock()
			reject := s.reject
			s.mu.Unlock()
			if reject {
				say("550 5.1.1 no such mailbox")
			} else {
				say("250 ok")
			}
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
			delay := s.delay
			s.mu.Unlock()
			time.Sleep(delay)
			say("250 queued")
		case "QUIT":
			say("221 bye")
			return
		default:
			say("250 ok")
		}
	}
}
