package eventstore

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/internal/testing/testdb"
)

// TestLentBufferKeepsPendingMessages: the lent buffer replaces the
// frontend's only when that one is empty and smaller; a message pending in
// it is never dropped.
func TestLentBufferKeepsPendingMessages(t *testing.T) {
	lent := lentBuffer(make([]byte, 0, 4096))
	pending := append(make([]byte, 0, 1024), 'B', 0, 0, 0, 4)
	if got, _ := lent.Encode(pending); !bytes.Equal(got, pending) || &got[0] != &pending[0] {
		t.Fatalf("a pending message was replaced: %q", got)
	}
	fresh := make([]byte, 0, 1024)
	if got, _ := lent.Encode(fresh); len(got) != 0 || cap(got) != 4096 {
		t.Fatalf("an empty 1 kB buffer: got len %d cap %d, want the lent one", len(got), cap(got))
	}
	larger := make([]byte, 0, 8192)
	if got, _ := lent.Encode(larger); cap(got) != 8192 {
		t.Fatalf("a larger buffer was replaced by a smaller one: cap %d", cap(got))
	}
}

// TestWriteBufferIsTheConnections: a batch sent after lendWriteBuffer is
// written into the connection's kept buffer (pgx's frontend appended to
// it), the next batch into the same one, and the answers are the
// statements' own. It fails if a pgx upgrade stops appending to the
// buffer Encode returns.
func TestWriteBufferIsTheConnections(t *testing.T) {
	ctx := context.Background()
	conn, err := testdb.New(t).Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	pc := conn.Conn().PgConn()
	var firstKept *byte
	for round, fill := range []string{"a", "b", "c"} {
		payload := strings.Repeat(fill, 3000) // the batch is above the frontend's 1 kB
		lendWriteBuffer(pc, 4*len(payload))
		kept, _ := pc.CustomData()[writeBufferKey].([]byte)
		if cap(kept) < 4*len(payload) {
			t.Fatalf("round %d: kept buffer of %d bytes, want at least %d", round, cap(kept), 4*len(payload))
		}
		var first, second string
		batch := &pgx.Batch{}
		batch.Queue(`SELECT $1::text`, payload).QueryRow(func(r pgx.Row) error { return r.Scan(&first) })
		batch.Queue(`SELECT length($1::text)::text`, payload).QueryRow(func(r pgx.Row) error { return r.Scan(&second) })
		if err := conn.SendBatch(ctx, batch).Close(); err != nil {
			t.Fatal(err)
		}
		if first != payload || second != "3000" {
			t.Fatalf("round %d: answers %d bytes and %q", round, len(first), second)
		}
		if !bytes.Contains(kept[:cap(kept)], []byte(payload)) {
			t.Fatalf("round %d: the batch was not written into the kept buffer", round)
		}
		if round == 0 {
			firstKept = &kept[:1][0]
		} else if &kept[:1][0] != firstKept {
			t.Fatalf("round %d: the kept buffer was replaced", round)
		}
	}
}
