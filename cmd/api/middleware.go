package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/google/uuid"
)

type ctxKey int

const (
	_ ctxKey = iota
	sessionKey
)

// requestScope is what the middleware learn about a request, kept in one
// context value (issue 36: one copy of the request for all of it rather
// than one per piece): its id and the client's, set by withRoutedRequest, and
// the desktop API's caller, set by admitAPIKey once the key is admitted.
// A field is written only before the middleware that sets it calls the
// next handler, so everything after it reads it without a lock.
type requestScope struct {
	id       string    // the server's id of the request
	clientID string    // the X-Request-ID the client sent, if sane; "" else
	caller   apiCaller // the admitted desktop call's account and key hash
	// The desktop API's X-API-Key, its hash (keyHashOf) and the account
	// d.APIKeys found for that hash (rememberedAccount), each found once.
	key, keyHash                      string
	rememberedHash, rememberedAccount string
}

type scopeKey struct{}

// scopeOf is ctx's request scope, nil outside a request.
func scopeOf(ctx context.Context) *requestScope {
	s, _ := ctx.Value(scopeKey{}).(*requestScope)
	return s
}

// withRoutedRequest starts every request, in front of the router mux: its
// scope with a new id and its deadline, in one context and one copy of the
// request (issue 36), which also carries chi's routing context (mux would
// otherwise add it with a context value and a copy of the request of its
// own).
//
// The id is the server's, sent back in X-Request-ID and carried into logs,
// event metadata and the staff audit. An X-Request-ID the client sent
// (when sane: at most 64 printable ASCII characters) is kept apart as the
// client's (clientRequestID), logged and audited under that name: a client
// never chooses the id that stands for its request (issue 31, item 11).
//
// The deadline bounds the work of every request: past timeout its context
// ends, database calls and provider calls stop, and the answer is a 503
// with Retry-After instead of a request that hangs with its neighbour.
//
// The routing contexts are pooled and reset as chi's own are, and put
// back once the answer is written. The handler is still walkable as mux's
// routes (chi.Routes: chi.Walk in the tests), and is the routing context's
// Routes, so a handler that serves a request of its own from the root (the
// page's bootstrap answers) goes through it: that request has its own
// scope, id and deadline, as it had when the scope was set by the router's
// first middleware.
func withRoutedRequest(timeout time.Duration, mux *chi.Mux) http.Handler {
	return &routedRequest{routes: mux, mux: mux, timeout: timeout,
		pool: sync.Pool{New: func() any { return chi.NewRouteContext() }}}
}

type routedRequest struct {
	routes  // mux's: Routes, Middlewares, Match, Find
	mux     *chi.Mux
	timeout time.Duration
	pool    sync.Pool
}

// routes is chi.Routes under a name of its own, so that embedded its
// method Routes is promoted rather than hidden by the field's name.
type routes interface{ chi.Routes }

func (h *routedRequest) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if rctx, _ := r.Context().Value(chi.RouteCtxKey).(*chi.Context); rctx != nil {
		serveRequest(w, r, h.timeout, nil, h.mux) // routed already (not so in the server): mux uses the caller's
		return
	}
	rctx := h.pool.Get().(*chi.Context)
	rctx.Reset()
	rctx.Routes = h // the root: a request served anew from it (webapp_bootstrap's) gets its own scope and deadline
	serveRequest(w, r, h.timeout, rctx, h.mux)
	h.pool.Put(rctx)
}

// serveRequest serves r through next with the request's context: its
// scope, its deadline and, with rctx, chi's routing context.
func serveRequest(w http.ResponseWriter, r *http.Request, timeout time.Duration, rctx *chi.Context, next http.Handler) {
	deadline, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	ctx := &requestContext{Context: deadline, scope: requestScope{id: uuid.NewString()}, route: rctx}
	if c := headerOf(r.Header, "X-Request-Id"); len(c) > 0 && len(c) <= 64 && printableASCII(c) {
		ctx.scope.clientID = c
	}
	w.Header()["X-Request-Id"] = []string{ctx.scope.id} // X-Request-ID, canonical
	next.ServeHTTP(w, r.WithContext(ctx))
}

// requestContext is a request's context: its deadline's (Deadline, Done,
// Err and every other value are the embedded context's), with the
// request's scope and chi's routing context answered from one allocation
// rather than a context value each. Done is the embedded context's own
// channel, so contexts made from this one register with its cancellation
// directly, as they would with context.WithValue's.
type requestContext struct {
	context.Context
	scope requestScope
	route *chi.Context // nil: routed already (a request served through the mux from a caller's routing context), the key is looked up above
}

func (c *requestContext) Value(key any) any {
	switch key {
	case scopeKey{}:
		return &c.scope
	case chi.RouteCtxKey:
		if c.route != nil {
			return c.route
		}
	}
	return c.Context.Value(key)
}

func requestID(ctx context.Context) string {
	if s := scopeOf(ctx); s != nil {
		return s.id
	}
	return ""
}

// clientRequestID is the X-Request-ID the client sent, if sane; "" else.
func clientRequestID(ctx context.Context) string {
	if s := scopeOf(ctx); s != nil {
		return s.clientID
	}
	return ""
}

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

// withAccessLog logs one line per request (no bodies, no secrets) at info;
// with LOG_LEVEL above info it costs nothing, and the attributes are typed,
// so a line costs no boxing of its values. The record goes to the handler
// directly: Logger.LogAttrs would also walk the stack for the caller's
// program counter (runtime.Callers, ~1 % of bin/api's CPU under load),
// which the JSON handler without AddSource never reads (issue 36). With
// startup.NewLogger's handler the line is appended by hand, the same bytes
// (access_log.go); with any other handler it is slog's record.
func withAccessLog(log *slog.Logger) func(http.Handler) http.Handler {
	h := log.Handler()
	lw, _ := h.(lineWriter)
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
			l := accessLine{end: end, method: r.Method, path: r.URL.Path, status: ww.Status(), ms: end.Sub(start).Milliseconds(),
				requestID: requestID(r.Context()), clientRequestID: clientRequestID(r.Context())}
			if lw != nil && writeAccessLine(lw, l) {
				return
			}
			rec := slog.NewRecord(l.end, slog.LevelInfo, "request", 0)
			rec.AddAttrs(slog.String("method", l.method), slog.String("path", l.path),
				slog.Int("status", l.status), slog.Int64("ms", l.ms), slog.String("requestId", l.requestID),
				slog.String("clientRequestId", l.clientRequestID))
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
