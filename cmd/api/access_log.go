package main

import (
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// The access log's line, written by hand (issue 36): slog's JSONHandler
// took 3–4 % of bin/api's CPU under load for this one line per request
// (its handle state, a Record whose sixth attribute spills to the heap, a
// type switch and key escaping per attribute). appendAccessLine appends
// the very bytes the JSONHandler of startup.NewLogger writes for
//
//	slog.NewRecord(end, slog.LevelInfo, "request", 0) with the attributes
//	method, path, status, ms, requestId, clientRequestId
//
// (TestAccessLineMatchesSlog and FuzzAccessLineMatchesSlog compare the two
// byte for byte), so the line's format (docs/operations.md) is unchanged.

// lineWriter is a handler that also writes whole lines formatted as its
// own (startup.LineHandler).
type lineWriter interface{ WriteLine(line []byte) error }

// accessLine is one request's access log line's fields.
type accessLine struct {
	end                        time.Time
	method, path               string
	status                     int
	ms                         int64
	requestID, clientRequestID string
}

// appendAccessLine appends l's line as slog's JSONHandler (no options but
// the level) writes it, newline included. ok is false for a time slog
// would not write as RFC 3339 (a year outside 0–9999): that line is left
// to slog.
func appendAccessLine(buf []byte, l accessLine) (_ []byte, ok bool) {
	if y := l.end.Year(); y < 0 || y >= 10000 {
		return buf, false
	}
	buf = append(buf, `{"time":"`...)
	buf = l.end.AppendFormat(buf, time.RFC3339Nano)
	buf = append(buf, `","level":"INFO","msg":"request","method":"`...)
	buf = appendJSONStringBody(buf, l.method)
	buf = append(buf, `","path":"`...)
	buf = appendJSONStringBody(buf, l.path)
	buf = append(buf, `","status":`...)
	buf = strconv.AppendInt(buf, int64(l.status), 10)
	buf = append(buf, `,"ms":`...)
	buf = strconv.AppendInt(buf, l.ms, 10)
	buf = append(buf, `,"requestId":"`...)
	buf = appendJSONStringBody(buf, l.requestID)
	buf = append(buf, `","clientRequestId":"`...)
	buf = appendJSONStringBody(buf, l.clientRequestID)
	buf = append(buf, "\"}\n"...)
	return buf, true
}

// accessLineBuffers holds the lines' buffers between requests.
var accessLineBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// writeAccessLine writes l through w; false if it did not (the time is
// out of slog's range): the caller logs it through slog instead.
func writeAccessLine(w lineWriter, l accessLine) bool {
	bp := accessLineBuffers.Get().(*[]byte)
	b, ok := appendAccessLine((*bp)[:0], l)
	if ok {
		_ = w.WriteLine(b)
	}
	if cap(b) <= 4<<10 { // a long path's buffer is not kept
		*bp = b
		accessLineBuffers.Put(bp)
	}
	return ok
}

// appendJSONStringBody appends s escaped as log/slog's JSONHandler escapes
// a string (log/slog's appendEscapedJSONString, Go 1.26, BSD licence:
// encoding/json's escaping without the HTML escapes, and \u0008 and
// \u000c rather than encoding/json's \b and \f), without the quotes.
func appendJSONStringBody(buf []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if jsonSafe[b] {
				i++
				continue
			}
			buf = append(buf, s[start:i]...)
			buf = append(buf, '\\')
			switch b {
			case '\\', '"':
				buf = append(buf, b)
			case '\n':
				buf = append(buf, 'n')
			case '\r':
				buf = append(buf, 'r')
			case '\t':
				buf = append(buf, 't')
			default: // the other bytes below 0x20
				buf = append(buf, 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' { // valid JSON, escaped for JavaScript's sake
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\u202`...)
			buf = append(buf, hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(buf, s[start:]...)
}

const hexDigits = "0123456789abcdef"

// jsonSafe is true for the ASCII bytes a JSON string holds as they are:
// all but the control characters, '"' and '\\'.
var jsonSafe = func() (t [utf8.RuneSelf]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\'
	}
	return t
}()
