package main

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/internal/startup"
	"github.com/a2e-automation/app/internal/testing/downloadstest"
)

// slogAccessLine is the access log line as slog's JSONHandler (with no
// options but the level, as startup.NewLogger makes it) writes it: what
// withAccessLog wrote before appendAccessLine.
func slogAccessLine(t testing.TB, l accessLine) string {
	t.Helper()
	var buf bytes.Buffer
	h := slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo})
	rec := slog.NewRecord(l.end, slog.LevelInfo, "request", 0)
	rec.AddAttrs(slog.String("method", l.method), slog.String("path", l.path),
		slog.Int("status", l.status), slog.Int64("ms", l.ms), slog.String("requestId", l.requestID),
		slog.String("clientRequestId", l.clientRequestID))
	if err := h.Handle(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// accessLogStrings are strings on which a hand-written JSON escaper could
// part from slog's: every byte alone, quotes and backslashes, the control
// characters encoding/json writes as \b and \f (slog: \u0008, \u000c),
// HTML characters (slog does not escape them), U+2028 and U+2029, invalid
// UTF-8 (a lone continuation byte, a truncated sequence, a surrogate's
// encoding, an overlong one), DEL, multi-byte runes at the edges.
func accessLogStrings() []string {
	s := []string{"", "/v1/listings", "POST", "0f8fad5b-d9cb-469f-a165-70867728950e", `a"b\c`, "\b\f\n\r\t\x00\x1f\x7f",
		"<script>&amp;</script>", "a\u2028b\u2029c", "\u2027\u202a", "\x80", "a\xc3", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80",
		"é", "日本語/パス", "😀", "x\xffy\xfez", strings.Repeat("/long", 400), `\u0000`, "ends with \\", "\"",
	}
	for b := 0; b < 256; b++ {
		s = append(s, string([]byte{byte(b)}), "a"+string([]byte{byte(b)})+"z")
	}
	return s
}

// accessLogTimes are times in several zones and precisions, the range's
// ends, and one with a monotonic reading.
func accessLogTimes() []time.Time {
	return []time.Time{
		time.Date(2026, 11, 28, 3, 4, 5, 0, time.UTC),
		time.Date(2026, 11, 28, 3, 4, 5, 120000000, time.UTC),
		time.Date(2026, 11, 28, 3, 4, 5, 123456789, time.FixedZone("IST", 5*3600+1800)),
		time.Date(2026, 1, 2, 3, 4, 5, 1, time.FixedZone("", -8*3600)),
		time.Date(2026, 1, 2, 3, 4, 5, 1000, time.FixedZone("odd", -(3600+23*60+7))),
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Unix(0, 0),
		time.Now(),
		time.Now().In(time.Local),
	}
}

// TestAccessLineMatchesSlog: appendAccessLine writes the bytes slog's
// JSONHandler writes for the same line, whatever the strings, numbers and
// time; a time slog cannot write as RFC 3339 is left to slog.
func TestAccessLineMatchesSlog(t *testing.T) {
	base := accessLine{end: time.Now(), method: "POST", path: "/v1/listings", status: 201, ms: 3,
		requestID: "0f8fad5b-d9cb-469f-a165-70867728950e", clientRequestID: ""}
	var lines []accessLine
	for _, s := range accessLogStrings() {
		for field := range 4 {
			l := base
			switch field {
			case 0:
				l.method = s
			case 1:
				l.path = s
			case 2:
				l.requestID = s
			case 3:
				l.clientRequestID = s
			}
			lines = append(lines, l)
		}
	}
	for _, at := range accessLogTimes() {
		l := base
		l.end = at
		lines = append(lines, l)
	}
	for _, n := range []int64{0, -1, 1, 999, 1 << 40, -1 << 63, 1<<63 - 1} {
		l := base
		l.status, l.ms = int(n), n
		lines = append(lines, l)
	}
	for _, l := range lines {
		checkAccessLine(t, l)
	}
	for _, y := range []int{-1, 10000, 12345} {
		if _, ok := appendAccessLine(nil, accessLine{end: time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)}); ok {
			t.Errorf("year %d: appended, want it left to slog", y)
		}
	}
}

// FuzzAccessLineMatchesSlog is TestAccessLineMatchesSlog on random fields:
// `go test -fuzz FuzzAccessLineMatchesSlog ./cmd/api` searches further.
func FuzzAccessLineMatchesSlog(f *testing.F) {
	for _, s := range accessLogStrings() {
		f.Add(s, s, 201, int64(3), s, int64(1764299045123456789), 0)
	}
	f.Fuzz(func(t *testing.T, method, path string, status int, ms int64, id string, unixNano int64, offset int) {
		end := time.Unix(0, unixNano).In(time.FixedZone("", offset%(24*3600)))
		checkAccessLine(t, accessLine{end: end, method: method, path: path, status: status, ms: ms, requestID: id, clientRequestID: path + id})
	})
}

func checkAccessLine(t *testing.T, l accessLine) {
	t.Helper()
	got, ok := appendAccessLine([]byte("kept:"), l)
	if !ok {
		if y := l.end.Year(); y >= 0 && y < 10000 {
			t.Fatalf("%+v: not appended", l)
		}
		return
	}
	if want := "kept:" + slogAccessLine(t, l); string(got) != want {
		t.Fatalf("%+v:\n got %q\nwant %q", l, got, want)
	}
}

// TestAccessLogLine: through the server's middleware with
// startup.NewLogger's handler (the hand-written line) and with a plain
// slog JSONHandler (slog's record), a request logs the same line but for
// its time and duration, and the hand-written one is one valid JSON object
// with the request's fields.
func TestAccessLogLine(t *testing.T) {
	lineOf := func(log *slog.Logger, out *bytes.Buffer) map[string]any {
		h := routedForTest(time.Minute)(withAccessLog(log)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusTeapot)
		})))
		req := httptest.NewRequest(http.MethodPost, "/v1/listings/%E2%80%A8x", nil)
		req.Header.Set("X-Request-ID", `client "id" <1>`)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if strings.Count(out.String(), "\n") != 1 || !strings.HasSuffix(out.String(), "}\n") {
			t.Fatalf("want one line, got %q", out)
		}
		var m map[string]any
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			t.Fatalf("%q: %v", out, err)
		}
		if m["requestId"] != rec.Header().Get("X-Request-ID") || m["requestId"] == "" {
			t.Fatalf("requestId %v, answer's X-Request-ID %q", m["requestId"], rec.Header().Get("X-Request-ID"))
		}
		if _, err := time.Parse(time.RFC3339Nano, m["time"].(string)); err != nil {
			t.Fatal(err)
		}
		delete(m, "time")
		delete(m, "requestId")
		return m
	}
	var fast, plain bytes.Buffer
	fastLog := startup.NewLogger(&fast, "info")
	if _, ok := fastLog.Handler().(lineWriter); !ok {
		t.Fatal("startup.NewLogger's handler takes no lines: the access log would go through slog")
	}
	got := lineOf(fastLog, &fast)
	want := lineOf(slog.New(slog.NewJSONHandler(&plain, nil)), &plain)
	gotJSON, _ := json.Marshal(got)
	wantJSON, _ := json.Marshal(want)
	if string(gotJSON) != string(wantJSON) {
		t.Fatalf("hand-written line %s, slog's %s", gotJSON, wantJSON)
	}
	if got["msg"] != "request" || got["level"] != "INFO" || got["path"] != "/v1/listings/\u2028x" || got["status"] != float64(http.StatusTeapot) ||
		got["clientRequestId"] != `client "id" <1>` || got["method"] != http.MethodPost {
		t.Fatalf("line %s", gotJSON)
	}
	// Above info, nothing is written.
	var quiet bytes.Buffer
	h := withAccessLog(startup.NewLogger(&quiet, "warn"))(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
	if quiet.Len() != 0 {
		t.Fatalf("LOG_LEVEL=warn: %q", quiet.String())
	}
}

// BenchmarkAccessLog: one access log line through slog's JSONHandler
// against appendAccessLine, both to io.Discard's equivalent.
func BenchmarkAccessLog(b *testing.B) {
	l := accessLine{end: time.Now(), method: "POST", path: "/v1/listings", status: 201, ms: 3,
		requestID: "0f8fad5b-d9cb-469f-a165-70867728950e"}
	b.Run("slog", func(b *testing.B) {
		h := slog.NewJSONHandler(discard{}, nil)
		b.ReportAllocs()
		for b.Loop() {
			rec := slog.NewRecord(l.end, slog.LevelInfo, "request", 0)
			rec.AddAttrs(slog.String("method", l.method), slog.String("path", l.path),
				slog.Int("status", l.status), slog.Int64("ms", l.ms), slog.String("requestId", l.requestID),
				slog.String("clientRequestId", l.clientRequestID))
			_ = h.Handle(context.Background(), rec)
		}
	})
	b.Run("appended", func(b *testing.B) {
		w := startup.NewLogger(discard{}, "info").Handler().(lineWriter)
		b.ReportAllocs()
		for b.Loop() {
			writeAccessLine(w, l)
		}
	})
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// TestGatheredAccessLinesWrittenAtStop: with ACCESS_LOG_FLUSH the access
// line of a request waits in the process, and bin/api writes it when it
// stops (run's last step), not only when the timer fires.
func TestGatheredAccessLinesWrittenAtStop(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	downloadstest.WriteInstaller(t, dir, "A2E-Automation-Setup-2.4.1.exe", downloadstest.WindowsExecutable())
	prod := productionEnv(t, dir)
	getenv := func(k string) string {
		if k == "ACCESS_LOG_FLUSH" {
			return "1s"
		}
		return prod(k)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	stdout, stderr := &logBuffer{}, &logBuffer{}
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"api", "-addr", "127.0.0.1:0"}, getenv, stdout, stderr) }()
	var addr string
	for addr == "" {
		select {
		case err := <-done:
			t.Fatalf("run: %v\n%s", err, stderr.String())
		case <-time.After(20 * time.Millisecond):
			if _, a, ok := strings.Cut(stdout.String(), "listening on "); ok {
				addr = strings.TrimSpace(a)
			}
		}
	}
	start := time.Now()
	res, err := http.Get(addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	const line = `"msg":"request","method":"GET","path":"/healthz","status":200`
	if strings.Contains(stderr.String(), line) && time.Since(start) < time.Second {
		t.Fatalf("the access line was written at once: %s", stderr.String())
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), line) {
		t.Fatalf("no access line after the stop:\n%s", stderr.String())
	}
}
