package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"slices"
	"time"

	"github.com/go-chi/chi/v5/middleware"
	"github.com/google/uuid"
)

type ctxKey int

const (
	requestIDKey ctxKey = iota
	sessionKey
	clientRequestIDKey
)

// withRecover turns a handler's panic into the logged, hidden 500 that any
// unexpected error gets, in the one error format.
func withRecover(d Deps) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				if v := recover(); v != nil {
					if v == http.ErrAbortHandler {
						panic(v)
					}
					writeError(w, r, d.Log, fmt.Errorf("panic: %v\n%s", v, debug.Stack()))
				}
			}()
			next.ServeHTTP(w, r)
		})
	}
}

// withDeadline bounds the work of every request: past timeout its context
// ends, database calls and provider calls stop, and the answer is a 503
// with Retry-After instead of a request that hangs with its neighbour.
func withDeadline(timeout time.Duration) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx, cancel := context.WithTimeout(r.Context(), timeout)
			defer cancel()
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
}

// withRequestID gives every request a new id of the server's, sent back in
// X-Request-ID and carried into logs, event metadata and the staff audit.
// An X-Request-ID the client sent (when sane: at most 64 printable ASCII
// characters) is kept apart as the client's (clientRequestID), logged and
// audited under that name: a client never chooses the id that stands for
// its request (issue 31, item 11).
func withRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := uuid.NewString()
		ctx := context.WithValue(r.Context(), requestIDKey, id)
		if c := r.Header.Get("X-Request-ID"); len(c) > 0 && len(c) <= 64 && printableASCII(c) {
			ctx = context.WithValue(ctx, clientRequestIDKey, c)
		}
		w.Header().Set("X-Request-ID", id)
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

func requestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}

// clientRequestID is the X-Request-ID the client sent, if sane; "" else.
func clientRequestID(ctx context.Context) string {
	id, _ := ctx.Value(clientRequestIDKey).(string)
	return id
}

// withAccessLog logs one line per request (no bodies, no secrets) at info;
// with LOG_LEVEL above info it costs nothing, and the attributes are typed,
// so a line costs no boxing of its values. The record goes to the handler
// directly: Logger.LogAttrs would also walk the stack for the caller's
// program counter (runtime.Callers, ~1 % of bin/api's CPU under load),
// which the JSON handler without AddSource never reads (issue 36).
func withAccessLog(log *slog.Logger) func(http.Handler) http.Handler {
	h := log.Handler()
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !h.Enabled(r.Context(), slog.LevelInfo) {
				next.ServeHTTP(w, r)
				return
			}
			start := time.Now()
			ww, wrapped := w.(middleware.WrapResponseWriter) // withResponseCounts' own, when it runs first
			if !wrapped {
				ww = middleware.NewWrapResponseWriter(w, r.ProtoMajor)
			}
			next.ServeHTTP(ww, r)
			end := time.Now()
			rec := slog.NewRecord(end, slog.LevelInfo, "request", 0)
			rec.AddAttrs(slog.String("method", r.Method), slog.String("path", r.URL.Path),
				slog.Int("status", ww.Status()), slog.Int64("ms", end.Sub(start).Milliseconds()), slog.String("requestId", requestID(r.Context())),
				slog.String("clientRequestId", clientRequestID(r.Context())))
			_ = h.Handle(r.Context(), rec)
		})
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
