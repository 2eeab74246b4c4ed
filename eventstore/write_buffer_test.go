package eventstore

import (
	"bytes"
	"context"
	"fmt"
	"slices"
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

// TestLentParamsAreSentBeforeTheBufferIsReused: two statements of one
// batch, each with its first parameter lent the connection's kept buffer,
// are answered with their own parameters (the first's were sent before
// the second's were encoded over them), the parameters were encoded into
// the kept buffer, and a statement without lend on the same connection
// is unchanged.
func TestLentParamsAreSentBeforeTheBufferIsReused(t *testing.T) {
	ctx := context.Background()
	conn, err := testdb.New(t).Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	kept := paramsOf(conn.Conn())
	if paramsOf(conn.Conn()) != kept {
		t.Fatal("a second paramsOf made another buffer")
	}
	for round := range 3 {
		a := []string{strings.Repeat("a", 1500), strings.Repeat("b", 1500), fmt.Sprint(round)}
		b := []string{strings.Repeat("c", 2000), strings.Repeat("d", 1000)}
		var gotA, gotB []string
		var sum int64
		batch := &pgx.Batch{}
		batch.Queue(`SELECT $1::text[] || $2::text[]`, lend(kept, 8000, a), []string{"tail"}).QueryRow(func(r pgx.Row) error { return r.Scan(&gotA) })
		batch.Queue(`SELECT $1::text[]`, lend(kept, 8000, b)).QueryRow(func(r pgx.Row) error { return r.Scan(&gotB) })
		batch.Queue(`SELECT sum(x) FROM unnest($1::bigint[]) x`, []int64{1, 2, 3}).QueryRow(func(r pgx.Row) error { return r.Scan(&sum) })
		if err := conn.SendBatch(ctx, batch).Close(); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(gotA, append(slices.Clone(a), "tail")) || !slices.Equal(gotB, b) || sum != 6 {
			t.Fatalf("round %d: answers %d, %d elements, sum %d", round, len(gotA), len(gotB), sum)
		}
		if cap(kept.buf) < 8000 || !bytes.Contains(kept.buf[:cap(kept.buf)], []byte(b[0])) {
			t.Fatalf("round %d: the parameters were not encoded into the kept buffer (%d bytes)", round, cap(kept.buf))
		}
	}
}
