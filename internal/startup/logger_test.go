package startup

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the timer's goroutine, counting
// the writes it gets.
type syncBuffer struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes++
	return s.b.Write(p)
}

func (s *syncBuffer) read() (string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String(), s.writes
}

func line(i int) []byte { return fmt.Appendf(nil, `{"msg":"request","n":%d}`+"\n", i) }

// TestBufferedLoggerGathersLines: the access lines wait for the timer (one
// write for many), slog's own lines are written at once after them, and
// FlushLog writes what is left.
func TestBufferedLoggerGathersLines(t *testing.T) {
	var out syncBuffer
	log := NewBufferedLogger(&out, "info", 50*time.Millisecond)
	h := log.Handler().(LineHandler)
	for i := range 3 {
		if err := h.WriteLine(line(i)); err != nil {
			t.Fatal(err)
		}
	}
	if s, _ := out.read(); s != "" {
		t.Fatalf("written before the timer: %q", s)
	}
	deadline := time.Now().Add(5 * time.Second)
	for s, _ := out.read(); s == "" && time.Now().Before(deadline); s, _ = out.read() {
		time.Sleep(5 * time.Millisecond)
	}
	s, writes := out.read()
	if want := string(line(0)) + string(line(1)) + string(line(2)); s != want || writes != 1 {
		t.Fatalf("after the timer: %d writes of %q, want 1 of %q", writes, s, want)
	}

	_ = h.WriteLine(line(3))
	log.Warn("slow", "n", 4) // at once, after line 3
	s, _ = out.read()
	if i3, iw := strings.Index(s, `"n":3`), strings.Index(s, `"msg":"slow"`); i3 < 0 || iw < i3 || !strings.HasSuffix(s, "}\n") {
		t.Fatalf("slog's line not written at once after the gathered one: %q", s)
	}

	_ = h.WriteLine(line(5))
	if err := FlushLog(log); err != nil {
		t.Fatal(err)
	}
	if s, _ = out.read(); !strings.HasSuffix(s, string(line(5))) {
		t.Fatalf("FlushLog left the last line: %q", s)
	}
}

// TestBufferedLoggerFullWritesAtOnce: past maxGathered the line that
// passes it writes everything at once, without the timer.
func TestBufferedLoggerFullWritesAtOnce(t *testing.T) {
	var out syncBuffer
	h := NewBufferedLogger(&out, "info", time.Hour).Handler().(LineHandler)
	var want bytes.Buffer
	for i := 0; want.Len() < maxGathered; i++ {
		want.Write(line(i))
		_ = h.WriteLine(line(i))
	}
	if s, writes := out.read(); s != want.String() || writes != 1 {
		t.Fatalf("%d writes of %d bytes, want 1 of %d", writes, len(s), want.Len())
	}
}

// TestLoggerWritesEachLine: NewLogger (and flushEvery 0) writes each line
// in its own write, at once.
func TestLoggerWritesEachLine(t *testing.T) {
	var out syncBuffer
	log := NewLogger(&out, "info")
	_ = log.Handler().(LineHandler).WriteLine(line(1))
	log.Info("x")
	if s, writes := out.read(); writes != 2 || !strings.HasPrefix(s, string(line(1))) {
		t.Fatalf("%d writes of %q", writes, s)
	}
}

// TestBufferedLoggerConcurrent: lines written from many goroutines all
// arrive whole (run with -race).
func TestBufferedLoggerConcurrent(t *testing.T) {
	var out syncBuffer
	log := NewBufferedLogger(&out, "info", time.Millisecond)
	h := log.Handler().(LineHandler)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				_ = h.WriteLine(line(g*1000 + i))
				if i%100 == 0 {
					log.Info("x")
				}
			}
		})
	}
	wg.Wait()
	_ = FlushLog(log)
	s, _ := out.read()
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if len(lines) != 8*500+8*5 {
		t.Fatalf("%d lines", len(lines))
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "{") || !strings.HasSuffix(l, "}") {
			t.Fatalf("a broken line: %q", l)
		}
	}
}

// BenchmarkAccessLineToPipe writes access lines through the logger to a
// pipe drained by another goroutine, as bin/api's stderr is by its reader:
// each line at once (flushEvery 0) against gathered (10ms).
func BenchmarkAccessLineToPipe(b *testing.B) {
	for _, every := range []time.Duration{0, 10 * time.Millisecond} {
		b.Run("flush="+every.String(), func(b *testing.B) {
			r, w, err := os.Pipe()
			if err != nil {
				b.Fatal(err)
			}
			drained := make(chan struct{})
			go func() { _, _ = io.Copy(io.Discard, r); close(drained) }()
			log := NewBufferedLogger(w, "info", every)
			h := log.Handler().(LineHandler)
			l := []byte(`{"time":"2026-11-28T12:00:00.123456789Z","level":"INFO","msg":"request","method":"POST","path":"/v1/listings","status":201,"ms":3,"requestId":"0b7c1f4e-8d2a-4c55-9a4e-2f6f3c9d1e77","clientRequestId":""}` + "\n")
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					_ = h.WriteLine(l)
				}
			})
			_ = FlushLog(log)
			_ = w.Close()
			<-drained
			_ = r.Close()
		})
	}
}
