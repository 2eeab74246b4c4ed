package eventstore

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
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
		buf = make([]byte, 0, max(need, 2*cap(buf), 4<<10))
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
