package main

// The case-driven fake API: for one step of sdk/conformance/cases.json it
// answers what the case says the real server answers (the step's expect,
// its arrange before it) and records what the SDK sent, so the SDK's
// behaviour on the cases is tested without bin/api. A behaviour change is
// one edit to cases.json; test/sdk runs the same cases against the real
// server.

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// arrangedRetryAfter is the arranged failure's Retry-After: short, so that
// riding it out is quick.
const arrangedRetryAfter = "0.05"

const fakeTimestamp = "2026-11-25T16:00:00.123456Z"

type obj = map[string]any

type caseStep struct {
	Arrange       string            `json:"arrange"`
	Op            obj               `json:"op"`
	Expect        obj               `json:"expect"`
	Save          map[string]string `json:"save"`
	WithinSeconds float64           `json:"withinSeconds"`
}

type conformanceCase struct {
	Name  string     `json:"name"`
	Steps []caseStep `json:"steps"`
}

func fresh() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

var variable = regexp.MustCompile(`\$\{(\w+)\}`)

// substitute replaces ${name} by vars[name] in every string of v.
func substitute(v any, vars map[string]any) any {
	switch v := v.(type) {
	case string:
		if m := variable.FindStringSubmatch(v); m != nil && m[0] == v {
			return vars[m[1]]
		}
		return variable.ReplaceAllStringFunc(v, func(s string) string { return fmt.Sprint(vars[s[2:len(s)-1]]) })
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = substitute(x, vars)
		}
		return out
	case obj:
		out := obj{}
		for k, x := range v {
			out[k] = substitute(x, vars)
		}
		return out
	}
	return v
}

// materialize is an answer's value for an expectation: "<string>" a fresh
// string (a timestamp where one is), "<positive>" 1.
func materialize(v any, key string) any {
	switch v := v.(type) {
	case string:
		if v == "<string>" {
			if key == "createdAt" || key == "resetsAt" || key == "monthlyCreditsExpireAt" {
				return fakeTimestamp
			}
			return fresh()
		}
		if v == "<positive>" {
			return 1.0
		}
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = materialize(x, "")
		}
		return out
	case obj:
		out := obj{}
		for k, x := range v {
			out[k] = materialize(x, k)
		}
		return out
	}
	return v
}

// mismatch is the first way actual does not hold what expect names
// (sdk/conformance/README.md), or "".
func mismatch(expect, actual any, path string) string {
	switch e := expect.(type) {
	case nil:
		if actual != nil {
			return fmt.Sprintf("%s: want null, got %v", path, actual)
		}
	case string:
		s, ok := actual.(string)
		switch {
		case e == "<string>" && (!ok || s == ""):
			return fmt.Sprintf("%s: want a string, got %v", path, actual)
		case e == "<positive>":
			if n, ok := actual.(float64); !ok || n <= 0 {
				return fmt.Sprintf("%s: want a positive number, got %v", path, actual)
			}
		case e != "<string>" && (!ok || s != e):
			return fmt.Sprintf("%s: want %q, got %v", path, e, actual)
		}
	case []any:
		a, ok := actual.([]any)
		if !ok || len(a) != len(e) {
			return fmt.Sprintf("%s: want %d items, got %v", path, len(e), actual)
		}
		for i := range e {
			if m := mismatch(e[i], a[i], fmt.Sprintf("%s[%d]", path, i)); m != "" {
				return m
			}
		}
	case obj:
		a, ok := actual.(obj)
		if !ok {
			return fmt.Sprintf("%s: want an object, got %v", path, actual)
		}
		for k, x := range e {
			if m := mismatch(x, a[k], path+"."+k); m != "" {
				return m
			}
		}
	default:
		if !reflect.DeepEqual(expect, actual) {
			return fmt.Sprintf("%s: want %v, got %v", path, expect, actual)
		}
	}
	return ""
}

// at is the value at a dotted path such as "result.nextCursor".
func at(line obj, path string) any {
	var v any = line
	for _, k := range strings.Split(path, ".") {
		m, _ := v.(obj)
		v = m[k]
	}
	return v
}

type answer struct {
	status  int
	headers map[string]string
	body    any
}

func rateLimitHeaders() map[string]string {
	return map[string]string{"X-RateLimit-Limit": "20", "X-RateLimit-Remaining": "19",
		"X-RateLimit-Reset": strconv.FormatInt(time.Now().Unix()+60, 10)}
}

func errorAnswer(status int, code, retryAfter, requestID, message string, extra obj) answer {
	if requestID == "" {
		requestID = fresh()
	}
	if message == "" {
		message = code + " message"
	}
	h := map[string]string{"X-Request-ID": requestID}
	if retryAfter != "" {
		h["Retry-After"] = retryAfter
	}
	body := obj{"code": code, "message": message, "requestId": requestID}
	for k, v := range extra {
		body[k] = v
	}
	return answer{status, h, body}
}

// expectedErrorAnswer is the error answer the step's expected error is the
// SDK's reading of.
func expectedErrorAnswer(expected obj) answer {
	e := materialize(expected, "").(obj)
	extra := obj{}
	if c, ok := e["creditsRemaining"]; ok && c != nil {
		extra["creditsRemaining"] = c
	}
	if sl, ok := e["spendLimit"].(obj); ok {
		for k, v := range sl {
			extra[k] = v
		}
	}
	status := int(e["status"].(float64))
	retryAfter := ""
	if r, ok := e["retryAfter"].(float64); ok {
		retryAfter = strconv.FormatFloat(r, 'f', -1, 64)
	} else if status == 429 || status == 503 {
		retryAfter = arrangedRetryAfter
	}
	str := func(k string) string { s, _ := e[k].(string); return s }
	return errorAnswer(status, str("code"), retryAfter, str("requestId"), str("message"), extra)
}

var asin = regexp.MustCompile(`/dp/(\w+)`)

func listingOf(fields any, op obj) obj {
	f, _ := materialize(fields, "").(obj)
	u, _ := f["amazonUrl"].(string)
	if u == "" {
		u, _ = op["amazonUrl"].(string)
	}
	if u == "" {
		u = "https://www.amazon.com/dp/B000000000"
	}
	l := obj{"id": fresh(), "asin": "B000000000", "amazonUrl": u, "status": "queued", "createdAt": fakeTimestamp}
	if m := asin.FindStringSubmatch(u); m != nil {
		l["asin"] = m[1]
	}
	for k, v := range f {
		l[k] = v
	}
	return l
}

// request is what an op sends: method, path, the query it must carry (nil:
// not given) and the body.
type request struct {
	method, path string
	query        map[string]any
	body         obj
}

func requestOf(op obj) request {
	switch op["op"] {
	case "create":
		return request{method: "POST", path: "/v1/listings", body: obj{"amazonUrl": op["amazonUrl"]}}
	case "veroCheck":
		return request{method: "POST", path: "/v1/vero-checks", body: obj{"brand": op["brand"]}}
	case "retrieve":
		return request{method: "GET", path: "/v1/listings/" + url.PathEscape(op["id"].(string))}
	case "list":
		return request{method: "GET", path: "/v1/listings", query: map[string]any{"limit": op["limit"], "cursor": op["cursor"], "idempotencyKey": op["idempotencyKey"]}}
	case "listAll":
		return request{method: "GET", path: "/v1/listings", query: map[string]any{"limit": op["limit"]}}
	case "findByIdempotencyKey":
		return request{method: "GET", path: "/v1/listings", query: map[string]any{"idempotencyKey": op["idempotencyKey"]}}
	default:
		return request{method: "GET", path: "/v1/account"}
	}
}

// plan is how the fake answers each request one step's op makes.
type plan struct {
	op, expect obj
	request    request
	arrange    string
	final      answer
	pages      [][]any
}

func planOf(step caseStep, op, expect obj, email string) *plan {
	p := &plan{op: op, expect: expect, request: requestOf(op), arrange: step.Arrange}
	if expect["ok"] != true {
		e := expect["error"].(obj)
		if e["status"] == nil {
			return p // no HTTP answer (noServer)
		}
		p.final = expectedErrorAnswer(e)
		return p
	}
	r, given := expect["result"]
	if !given {
		r = obj{}
	}
	ro, _ := r.(obj)
	status := 200
	if p.request.method == "POST" {
		status = 201
	}
	var body any
	switch op["op"] {
	case "create", "retrieve":
		body = listingOf(r, op)
	case "veroCheck":
		b := obj{"id": fresh(), "brand": strings.Join(strings.Fields(op["brand"].(string)), " "), "protected": false, "creditsRemaining": 0}
		for k, v := range materialize(ro, "").(obj) {
			b[k] = v
		}
		body = b
	case "list":
		data := []any{}
		for _, l := range ro["data"].([]any) {
			data = append(data, listingOf(l, nil))
		}
		body = obj{"data": data, "nextCursor": materialize(ro["nextCursor"], "")}
	case "findByIdempotencyKey":
		data := []any{}
		if r != nil {
			data = append(data, listingOf(r, nil))
		}
		body = obj{"data": data, "nextCursor": nil}
	case "listAll":
		limit := int(op["limit"].(float64))
		var data []any
		for _, l := range ro["data"].([]any) {
			data = append(data, listingOf(l, nil))
		}
		for i := 0; i < len(data); i += limit {
			p.pages = append(p.pages, data[i:min(i+limit, len(data))])
		}
	default:
		b := obj{"email": email, "creditsAvailable": 0, "subscriptionStatus": "inactive", "spendingFrozen": false, "creditDebt": 0,
			"monthlyCredits": 0, "monthlyCreditsExpireAt": nil, "purchasedCredits": 0, "otherCredits": 0}
		for k, v := range materialize(ro, "").(obj) {
			b[k] = v
		}
		body = b
	}
	p.final = answer{status, rateLimitHeaders(), body}
	return p
}

// answer is the answer to the n-th request (from 0) of the op's method.
func (p *plan) answer(n int, r *http.Request) answer {
	commit := p.arrange == "commitCut" || p.arrange == "commitLost"
	if commit && r.Method == "GET" {
		// The read-back by key after the last attempt: the cut COMMIT
		// committed, the lost one did not.
		found := []any{}
		if p.arrange == "commitCut" {
			l := listingOf(nil, p.op)
			if p.expect["ok"] == true {
				l = obj{}
				for k, v := range p.final.body.(obj) {
					l[k] = v
				}
			}
			l["idempotencyKey"] = r.URL.Query().Get("idempotencyKey")
			found = append(found, l)
		}
		return answer{200, rateLimitHeaders(), obj{"data": found, "nextCursor": nil}}
	}
	arranged := map[string][2]any{"rateLimited": {429, "rate_limited"}, "databaseDown": {503, "service_unavailable"},
		"commitCut": {503, "commit_outcome_unknown"}, "commitLost": {503, "commit_outcome_unknown"}}
	if a, ok := arranged[p.arrange]; ok && n == 0 && p.expect["ok"] == true {
		return errorAnswer(a[0].(int), a[1].(string), arrangedRetryAfter, "", "", nil)
	}
	if p.pages != nil {
		i, _ := strconv.Atoi(r.URL.Query().Get("cursor"))
		var next any
		if i+1 < len(p.pages) {
			next = strconv.Itoa(i + 1)
		}
		return answer{200, nil, obj{"data": p.pages[i], "nextCursor": next}}
	}
	return p.final
}

type seen struct {
	method string
	url    *url.URL
	header http.Header
	body   []byte
	answer answer
}

// caseFake is an httptest server answering its plan.
type caseFake struct {
	mu   sync.Mutex
	plan *plan
	seen []seen
	url  string
}

func newCaseFake(t *testing.T) *caseFake {
	f := &caseFake{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		n := 0
		for _, s := range f.seen {
			if s.method == f.plan.request.method {
				n++
			}
		}
		a := f.plan.answer(n, r)
		f.seen = append(f.seen, seen{r.Method, r.URL, r.Header.Clone(), body, a})
		f.mu.Unlock()
		for k, v := range a.headers {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(a.status)
		_ = json.NewEncoder(w).Encode(a.body)
	}))
	t.Cleanup(ts.Close)
	f.url = ts.URL
	return f
}

func (f *caseFake) start(p *plan) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.plan, f.seen = p, nil
}

// requestsMismatch is what the step's requests broke of the protocol, or
// "": each is the op's, with the API key; every retry of a POST has the
// first attempt's key and bytes; at most maxRetries retries, none after an
// answer a retry cannot fix; a read-back (one GET by the key) only after a
// commit_outcome_unknown.
func (f *caseFake) requestsMismatch(apiKey string, maxRetries int) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := f.plan
	var attempts, others []seen
	for _, s := range f.seen {
		if s.method == p.request.method {
			attempts = append(attempts, s)
		} else {
			others = append(others, s)
		}
	}
	listAll := p.op["op"] == "listAll"
	if len(attempts) == 0 || (!listAll && len(attempts) > maxRetries+1) {
		return fmt.Sprintf("%d attempts of %s, maxRetries %d", len(attempts), p.request.method, maxRetries)
	}
	for _, s := range f.seen {
		if s.header.Get("X-API-Key") != apiKey {
			return fmt.Sprintf("%s %s without the API key", s.method, s.url)
		}
	}
	first := attempts[0]
	key := first.header.Get("Idempotency-Key")
	for _, s := range attempts {
		if s.url.EscapedPath() != p.request.path {
			return fmt.Sprintf("%s %s, want %s", s.method, s.url, p.request.path)
		}
		q := s.url.Query()
		for k, v := range p.request.query {
			if v != nil && q.Get(k) != fmt.Sprint(v) {
				return fmt.Sprintf("%s: want %s=%v", s.url, k, v)
			}
			if v == nil && p.op["op"] == "list" && q.Has(k) {
				return fmt.Sprintf("%s: %s sent, not given", s.url, k)
			}
		}
		if p.request.body != nil {
			var body obj
			if err := json.Unmarshal(s.body, &body); err != nil || !reflect.DeepEqual(body, p.request.body) {
				return fmt.Sprintf("%s: body %s, want %v", s.url, s.body, p.request.body)
			}
			if want, given := p.op["idempotencyKey"].(string); key == "" || (given && key != want) {
				return fmt.Sprintf("Idempotency-Key %q, want %v", key, p.op["idempotencyKey"])
			}
			if s.header.Get("Idempotency-Key") != key || string(s.body) != string(first.body) {
				return "a retry without the first attempt's key and bytes"
			}
		}
	}
	if !listAll {
		for _, s := range attempts[:len(attempts)-1] {
			if s.answer.status != 429 && s.answer.status < 500 {
				return "retried after an answer that a retry cannot fix"
			}
		}
	}
	if len(others) > 0 {
		last, _ := attempts[len(attempts)-1].answer.body.(obj)
		o := others[0]
		if len(others) != 1 || last["code"] != "commit_outcome_unknown" || o.method != "GET" ||
			o.url.Path != "/v1/listings" || o.url.Query().Get("idempotencyKey") != key {
			return fmt.Sprintf("unexpected %d requests: %s %s", len(others), o.method, o.url)
		}
	}
	return ""
}
