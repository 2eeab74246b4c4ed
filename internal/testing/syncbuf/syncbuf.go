// Package syncbuf is a bytes.Buffer that a process or logger writes while a
// test reads it.
package syncbuf

import (
	"bytes"
	"sync"
)

// Buffer is safe for one writer and readers at once.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
