package faultproxy

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// commitCut is a cut armed by CutCommit.
type commitCut struct {
	marker  []byte
	deliver bool
	done    chan struct{}
}

// CutCommit arms a one-time cut, in mode Postgres, of the first transaction
// whose client sends marker (compared byte for byte within any of its
// messages: a statement's text or a bound parameter, such as a unique
// idempotency key; empty, any transaction) and then commits with a simple-query COMMIT, as pgx's
// Tx.Commit does. With deliver, the COMMIT reaches the server and, once the
// server has answered it (so the transaction is committed), both sides are
// closed without that answer reaching the client; without deliver, both
// sides are closed instead of forwarding it (so the server rolls back).
// Either way the client never learns the outcome.
//
// The returned channel is closed once the cut is made. The cut stays armed
// until then or until the mode changes; arming again replaces it.
func (p *Proxy) CutCommit(marker string, deliver bool) <-chan struct{} {
	c := &commitCut{marker: []byte(marker), deliver: deliver, done: make(chan struct{})}
	p.mu.Lock()
	p.cut = c
	p.mu.Unlock()
	return c.done
}

// armed is the armed cut, or nil.
func (p *Proxy) armed() *commitCut {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cut
}

// claim disarms c, reporting whether it was still armed (so exactly one
// connection makes it).
func (p *Proxy) claim(c *commitCut) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cut != c {
		return false
	}
	p.cut = nil
	return true
}

// answerTimeout bounds the wait for the server's answer to a delivered
// COMMIT before the connection is cut anyway.
const answerTimeout = 5 * time.Second

// pgSession is one connection proxied in mode Postgres.
type pgSession struct {
	p              *Proxy
	client, server net.Conn
	closeOnce      sync.Once
	// swallow: a COMMIT was delivered for a cut, and the server's next
	// bytes, its answer, end the connection instead of reaching the client.
	swallow atomic.Pointer[commitCut]
}

func (p *Proxy) forwardPostgres(c, up net.Conn) {
	s := &pgSession{p: p, client: c, server: up}
	go s.relayClient()
	p.copy(c, up, func() bool {
		if cut := s.swallow.Load(); cut != nil {
			s.close(cut)
			return false
		}
		return true
	})
	s.close(s.swallow.Load())
}

// close closes both sides, then reports the cut, if any, as made.
func (s *pgSession) close(cut *commitCut) {
	s.closeOnce.Do(func() {
		_ = s.client.Close()
		_ = s.server.Close()
		if cut != nil {
			close(cut.done)
		}
	})
}

// relayClient forwards the client's messages one at a time, watching for the
// armed cut's marker and the COMMIT after it: a simple query, or in the
// extended protocol the Bind of a statement whose text is COMMIT (the event
// store sends its COMMIT as the last statement of its write batch), its
// text known from the Parse that prepared it on this connection.
func (s *pgSession) relayClient() {
	r := bufio.NewReader(s.client)
	typed := false        // after the start-up message
	var marked *commitCut // the cut whose marker the current transaction sent
	stmts := map[string]string{}
	var untilSync *commitCut // a delivered extended-protocol COMMIT: cut after the Sync
	for {
		msg, err := readMessage(r, typed)
		if errors.Is(err, errNotPostgres) {
			// Not plaintext PostgreSQL (TLS, say): pass it through untouched.
			if _, err := s.server.Write(msg); err == nil {
				s.p.copy(s.server, r, nil)
			}
			s.close(nil)
			return
		}
		if err != nil {
			s.close(nil)
			return
		}
		s.p.waitThawed()
		if typed {
			if name, query, ok := parsed(msg); ok {
				stmts[name] = query
			}
		}
		if untilSync != nil {
			if msg[0] == 'S' {
				// The server answers the pipeline at its Sync: that answer
				// (the COMMIT's with it) ends the connection, as a delivered
				// simple-query COMMIT's does.
				s.cutAt(msg, untilSync)
				return
			}
		} else if !typed {
			typed = isStartupMessage(msg)
		} else if cut := s.p.armed(); cut == nil {
			marked = nil
		} else {
			// A marker counts only within the transaction that sent it: a
			// statement outside one (a read by the key, say) must not make
			// the connection's next transaction the one cut.
			if transactionBegin(msg) || strings.HasPrefix(bound(msg, stmts), "begin") {
				marked = nil
			}
			if bytes.Contains(msg, cut.marker) {
				marked = cut
			}
			if end, commit := transactionEnd(msg); end {
				if commit && marked == cut && s.p.claim(cut) {
					s.cutAt(msg, cut)
					return
				}
				marked = nil
			}
			if end, commit := statementEnd(bound(msg, stmts)); end {
				if commit && marked == cut && s.p.claim(cut) {
					if !cut.deliver {
						s.close(cut)
						return
					}
					untilSync = cut
				} else {
					marked = nil
				}
			}
		}
		if _, err := s.server.Write(msg); err != nil {
			s.close(nil)
			return
		}
	}
}

// cutAt makes cut at commit, the COMMIT message (or, for a COMMIT bound in a
// pipeline, the pipeline's Sync).
func (s *pgSession) cutAt(commit []byte, cut *commitCut) {
	if !cut.deliver {
		s.close(cut)
		return
	}
	s.swallow.Store(cut)
	if _, err := s.server.Write(commit); err != nil {
		s.close(cut)
		return
	}
	time.AfterFunc(answerTimeout, func() { s.close(cut) })
}

// errNotPostgres: the client's bytes are not a plaintext start-up.
var errNotPostgres = errors.New("not a plaintext PostgreSQL start-up")

// maxStartup is PostgreSQL's own bound on a start-up message.
const maxStartup = 10000

// readMessage reads one message of a client: before the start-up message is
// through, untyped (a length, then the rest); after it, typed (a type byte,
// then a length that counts itself). A start-up that cannot be one is
// errNotPostgres, with the bytes read so far.
func readMessage(r *bufio.Reader, typed bool) ([]byte, error) {
	head := 4
	if typed {
		head = 5
	}
	msg := make([]byte, head)
	if _, err := io.ReadFull(r, msg); err != nil {
		return nil, err
	}
	n := int(binary.BigEndian.Uint32(msg[head-4:]))
	if n < 4 || (!typed && n > maxStartup) {
		return msg, errNotPostgres
	}
	msg = append(msg, make([]byte, n-4)...)
	if _, err := io.ReadFull(r, msg[head:]); err != nil {
		return nil, err
	}
	return msg, nil
}

// Codes of the untyped requests that come before the start-up message.
const (
	sslRequest    = 80877103
	gssencRequest = 80877104
)

// isStartupMessage reports whether msg, an untyped message, is the
// start-up message itself (after which messages are typed) rather than a
// request for encryption.
func isStartupMessage(msg []byte) bool {
	if len(msg) < 8 {
		return false
	}
	code := binary.BigEndian.Uint32(msg[4:8])
	return code != sslRequest && code != gssencRequest
}

// simpleQuery is the text of msg when it is a simple query, lower case and
// without surrounding blanks or a final semicolon; "" otherwise.
func simpleQuery(msg []byte) string {
	if msg[0] != 'Q' {
		return ""
	}
	return strings.ToLower(strings.TrimRight(strings.TrimSpace(string(bytes.TrimRight(msg[5:], "\x00"))), "; \t\r\n"))
}

// transactionBegin reports whether msg is a simple query that begins a
// transaction, as pgx's Begin sends ("begin", with options or not).
func transactionBegin(msg []byte) bool {
	q := simpleQuery(msg)
	return q == "begin" || strings.HasPrefix(q, "begin ") || strings.HasPrefix(q, "start transaction")
}

// transactionEnd reports whether msg is a simple query that ends a
// transaction, and whether it commits.
func transactionEnd(msg []byte) (end, commit bool) {
	return statementEnd(simpleQuery(msg))
}

// parsed is the statement name and normalised text of msg when it is a
// Parse message (extended protocol).
func parsed(msg []byte) (name, query string, ok bool) {
	if msg[0] != 'P' {
		return "", "", false
	}
	fields := bytes.SplitN(msg[5:], []byte{0}, 3)
	if len(fields) < 3 {
		return "", "", false
	}
	return string(fields[0]), normalise(string(fields[1])), true
}

// bound is the normalised text of the statement msg binds when it is a Bind
// message whose statement this connection parsed; "" otherwise.
func bound(msg []byte, stmts map[string]string) string {
	if msg[0] != 'B' {
		return ""
	}
	fields := bytes.SplitN(msg[5:], []byte{0}, 3)
	if len(fields) < 3 {
		return ""
	}
	return stmts[string(fields[1])]
}

func normalise(q string) string {
	return strings.ToLower(strings.TrimRight(strings.TrimSpace(q), "; \t\r\n"))
}

// statementEnd reports whether q, a normalised statement, ends a
// transaction, and whether it commits.
func statementEnd(q string) (end, commit bool) {
	switch q {
	case "commit", "end", "commit transaction", "commit work":
		return true, true
	case "rollback", "abort", "rollback transaction", "rollback work":
		return true, false
	}
	return false, false
}
