package eventstore

import (
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/jackc/pgx/v5/pgtype"
)

// A group commit's batch is encoded into its connection's write buffer
// (pgproto3.Frontend's), which pgx v5 drops after each flush once it is
// above 1 kB: every group commit grew a new one from 1 kB by doubling, for
// each of its two batches (issue 36, sixth and ninth sessions: pgx's
// Bind.Encode was 19 % of the bytes bin/api allocated). pgx has no option
// for it, so lendWriteBuffer hands the frontend a buffer this package keeps
// per connection (in PgConn.CustomData), through Frontend.Send of a
// message that encodes to nothing and returns that buffer as the one to
// append to. The frontend writes the batch into it, flushes it, and drops
// it for a fresh 1 kB one; the connection keeps it for its next batch.
//
// Only the connection's own frontend ever holds the buffer, and only while
// the goroutine that holds the connection sends on it, so the buffer is
// never shared: a connection's buffer lives and dies with the connection.

// writeBufferKey is the buffer's key in PgConn.CustomData.
const writeBufferKey = "eventstore.writeBuffer"

// maxKeptWriteBuffer bounds the buffer a connection keeps: a larger batch
// (more than ~200 spends) grows its own, as pgx does.
const maxKeptWriteBuffer = 256 << 10

// lendWriteBuffer makes pc's frontend encode its next messages into the
// connection's kept buffer, of at least need bytes. It does nothing while
// the frontend has messages pending or the connection is busy or closed
// (asyncClose then owns the frontend).
func lendWriteBuffer(pc *pgconn.PgConn, need int) {
	if pc.IsClosed() || pc.IsBusy() || need > maxKeptWriteBuffer {
		return
	}
	data := pc.CustomData()
	buf, _ := data[writeBufferKey].([]byte)
	if cap(buf) < need {
		buf = make([]byte, 0, min(max(need, 2*cap(buf), 4<<10), maxKeptWriteBuffer))
		data[writeBufferKey] = buf
	}
	pc.Frontend().Send(lentBuffer(buf))
}

// lentBuffer is a frontend message that writes nothing: its Encode returns
// the buffer to append the next messages to.
type lentBuffer []byte

func (lentBuffer) Frontend() {}

func (lentBuffer) Decode([]byte) error { return errors.New("lentBuffer is not a protocol message") }

// Encode returns the lent buffer, empty, in place of dst: the frontend's
// buffer, which is empty unless a message is pending (then dst stays) and
// which is the lent buffer itself when the last batch fitted in 1 kB.
func (b lentBuffer) Encode(dst []byte) ([]byte, error) {
	if len(dst) > 0 || cap(dst) >= cap(b) {
		return dst, nil
	}
	return b[:0], nil
}

var _ pgproto3.FrontendMessage = lentBuffer(nil)

// A group commit's array parameters are encoded by pgx into its query
// builder's buffer, which pgx likewise drops after each statement once it
// is above 256 bytes: each statement's arrays grew a new one from 256 bytes
// by doubling (issue 36, ninth session: 15–20 % of the bytes bin/api
// allocated). The first parameter of each of the group commit's array
// statements is therefore sent as lentParams, whose encoding (a wrapper
// plan of pgx's type map, tryWrapLentParams, registered on the connection
// by paramsOf) starts the statement's parameters in a buffer the connection
// keeps, of the size they need. pgx copies the parameters into its write
// buffer (Bind) before it builds the next statement, which drops the kept
// buffer for a fresh one, so the kept buffer is reused by the next
// statement only once its bytes were sent.

// paramBufferKey is the kept parameter buffer's key in PgConn.CustomData.
const paramBufferKey = "eventstore.paramBuffer"

// keptParams is a connection's parameter buffer.
type keptParams struct{ buf []byte }

// paramsOf returns conn's kept parameter buffer, registering lentParams'
// encoding on conn's type map the first time.
func paramsOf(conn *pgx.Conn) *keptParams {
	data := conn.PgConn().CustomData()
	if k, ok := data[paramBufferKey].(*keptParams); ok {
		return k
	}
	m := conn.TypeMap()
	m.TryWrapEncodePlanFuncs = append([]pgtype.TryWrapEncodePlanFunc{tryWrapLentParams}, m.TryWrapEncodePlanFuncs...)
	k := &keptParams{}
	data[paramBufferKey] = k
	return k
}

// lentParams is value, the first parameter of a statement whose
// parameters take about need bytes, encoded at the start of kept's buffer.
// A type per T: pgx keeps one plan per type of value.
type lentParams[T any] struct {
	value T
	kept  *keptParams
	need  int
}

func (p lentParams[T]) lent() (any, *keptParams, int) { return p.value, p.kept, p.need }

type lender interface {
	lent() (value any, kept *keptParams, need int)
}

// lend is value as a statement's first parameter, its parameters needing
// about need bytes, encoded into kept (value itself with no kept).
func lend[T any](kept *keptParams, need int, value T) any {
	if kept == nil {
		return value
	}
	return lentParams[T]{value: value, kept: kept, need: need}
}

func tryWrapLentParams(value any) (pgtype.WrappedEncodePlanNextSetter, any, bool) {
	l, ok := value.(lender)
	if !ok {
		return nil, nil, false
	}
	v, _, _ := l.lent()
	return &lentParamsPlan{}, v, true
}

// lentParamsPlan encodes a lentParams' value, as pgx would, into the kept
// buffer when the statement's parameters start there (buf is empty) and
// buf is too small for them.
type lentParamsPlan struct{ next pgtype.EncodePlan }

func (p *lentParamsPlan) SetNext(next pgtype.EncodePlan) { p.next = next }

func (p *lentParamsPlan) Encode(value any, buf []byte) ([]byte, error) {
	v, kept, need := value.(lender).lent()
	if len(buf) == 0 && cap(buf) < need && need <= maxKeptWriteBuffer {
		if cap(kept.buf) < need {
			kept.buf = make([]byte, 0, min(max(need, 2*cap(kept.buf), 4<<10), maxKeptWriteBuffer))
		}
		buf = kept.buf[:0]
	}
	return p.next.Encode(v, buf)
}
