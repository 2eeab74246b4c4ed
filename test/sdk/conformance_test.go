// Package sdk_test runs the SDKs' conformance cases (sdk/conformance) with
// every SDK's runner against the real bin/api: built from the tree, in
// development, on a fresh database reached through a fault proxy, so a case
// can arrange a used-up rate limit, PostgreSQL down or a cut COMMIT. Each SDK
// is a subtest with a server of its own (the SDKs run at once), each case a
// subtest of it; an SDK without its runner or its tools is skipped, except
// on CI (CI=true).
package sdk_test

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/internal/apikeys"
	"github.com/a2e-automation/app/internal/config"
	"github.com/a2e-automation/app/internal/devseed"
	"github.com/a2e-automation/app/internal/testing/faultproxy"
)

func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts bin/api and runs every SDK's runner")
	}
	cases := loadCases(t)
	bin := buildAPI(t)
	// The SDKs run at once, each against a server, database and fault proxy
	// of its own: a case that takes PostgreSQL down or uses up a limit
	// touches its SDK's server alone, and one SDK's waits (Retry-After,
	// backoff, settle) overlap another's.
	for _, k := range sdks {
		t.Run(k.name, func(t *testing.T) {
			t.Parallel()
			dir, err := filepath.Abs(filepath.Join(repoRoot, "sdk", k.name))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(dir, k.runner)); err != nil {
				unavailable(t, "sdk/%s has no runner %s", k.name, k.runner)
			}
			r := runner{command: k.prepare(t, dir), dir: dir}
			srv := startServer(t, bin)
			for _, c := range cases {
				t.Run(c.Name, func(t *testing.T) { srv.runCase(t, r, c) })
			}
		})
	}
}

// runner is an SDK's prepared runner.
type runner struct {
	command []string
	dir     string
}

// runCase runs c's steps in order with a new account and checks what the
// account was charged.
func (s *server) runCase(t *testing.T, r runner, c testCase) {
	acct := s.seller(t, devseed.Options{Credits: c.Account.Credits, Frozen: c.Account.Frozen, DailyLimit: c.Account.DailyLimit,
		TestKey: c.Account.TestMode})
	vars := map[string]string{"key": "conformance-" + randomHex(8), "email": acct.Email}
	if c.OtherListing {
		vars["otherListingId"] = s.otherListing(t)
	}
	for i, st := range c.Steps {
		s.runStep(t, r, acct, st, vars, i+1)
	}
	if got := s.charges(t, acct.AccountID); got != c.Charges {
		t.Fatalf("the ledger holds %d spends of the account, want %d", got, c.Charges)
	}
}

// runStep arranges the server for st, runs the runner once through a
// recorder, and checks its line and its attempts; it saves st's variables
// into vars.
func (s *server) runStep(t *testing.T, r runner, acct devseed.Seller, st step, vars map[string]string, n int) {
	t.Helper()
	op, err := expand(st.Op, vars)
	if err != nil {
		t.Fatalf("step %d: op: %v", n, err)
	}
	expect, err := expand(st.Expect, vars)
	if err != nil {
		t.Fatalf("step %d: expect: %v", n, err)
	}
	opJSON, _ := json.Marshal(op)
	key := acct.APIKey
	var before, after func() error // around the first attempt
	var firstStatus int            // what the first attempt must be answered
	var done func() string         // once the runner is done: what went wrong, if anything
	switch st.Arrange {
	case "unknownKey":
		key = unknownKey(t)
	case "rateLimited":
		before, firstStatus = func() error { return s.exhaust(key) }, http.StatusTooManyRequests
	case "databaseDown":
		before = func() error { s.proxy.Set(faultproxy.Down); return nil }
		after = func() error { s.proxy.Set(faultproxy.Postgres); return nil }
		firstStatus = http.StatusServiceUnavailable
		done = func() string { time.Sleep(settle); return "" }
	case "commitCut", "commitLost":
		marker, _ := op.(map[string]any)["idempotencyKey"].(string)
		if marker == "" {
			t.Fatalf("step %d: %s needs the op's idempotencyKey to find its transaction", n, st.Arrange)
		}
		cut := s.proxy.CutCommit(marker, st.Arrange == "commitCut")
		firstStatus = http.StatusServiceUnavailable
		done = func() string {
			select {
			case <-cut:
				return ""
			case <-time.After(time.Second):
				return "the COMMIT of the create was never cut"
			}
		}
	}
	var base string
	var rec *recorder
	if st.Arrange == "noServer" {
		base = noServer(t)
	} else {
		rec = newRecorder(s.base, before, after)
		base = rec.URL()
	}
	out, runErr := call(r.command, r.dir, base, key, opJSON)
	var problems []string
	if runErr != nil {
		problems = append(problems, fmt.Sprintf("the runner failed: %v", runErr))
	}
	if done != nil {
		if p := done(); p != "" {
			problems = append(problems, p)
		}
	}
	var attempts []attempt
	if rec != nil {
		var arrangeErr error
		attempts, arrangeErr = rec.close()
		if arrangeErr != nil {
			problems = append(problems, fmt.Sprintf("arrange %s: %v", st.Arrange, arrangeErr))
		}
		if firstStatus != 0 && (len(attempts) == 0 || attempts[0].status != firstStatus) {
			problems = append(problems, fmt.Sprintf("arrange %s: the first attempt was not answered %d", st.Arrange, firstStatus))
		}
		maxRetries := defaultMaxRetries
		if m, ok := op.(map[string]any)["maxRetries"].(float64); ok {
			maxRetries = int(m)
		}
		problems = append(problems, retryProblems(attempts, maxRetries)...)
	}
	if bytes.Contains(out.stdout, []byte(key)) || bytes.Contains(out.stderr, []byte(key)) {
		problems = append(problems, "the API key appears in the runner's output (shown below as <API key>)")
	}
	line, p := parseLine(out.stdout)
	if p == "" {
		p = protocolProblem(line)
	}
	if p == "" {
		p = mismatch(expect, any(line), "$")
	}
	if p != "" {
		problems = append(problems, p)
	}
	// The step's time is what the SDK spends from its first request on
	// (requests, Retry-After, backoff), not its runner's start-up, which a
	// busy machine stretches to seconds for an interpreter.
	took, since := out.took, "in all"
	if len(attempts) > 0 {
		took, since = out.ended.Sub(attempts[0].sent), "from its first request to its exit"
	}
	if limit := time.Duration(st.WithinSeconds * float64(time.Second)); limit > 0 && took > limit {
		problems = append(problems, fmt.Sprintf("took %s %s, more than %s", took.Round(time.Millisecond), since, limit))
	}
	for name, path := range st.Save {
		v, ok := lookup(line, path)
		if !ok && len(problems) == 0 {
			problems = append(problems, fmt.Sprintf("no string at %s to save as ${%s}", path, name))
		}
		vars[name] = v
	}
	if len(problems) > 0 {
		redact := func(b []byte) string { return strings.ReplaceAll(string(b), key, "<API key>") }
		var seen strings.Builder
		for _, a := range attempts {
			fmt.Fprintf(&seen, "  %s\n", a)
		}
		t.Fatalf("step %d (arrange %q), op %s:\n  %s\nattempts:\n%sstdout:\n%s\nstderr:\n%s", n, st.Arrange, opJSON,
			strings.Join(problems, "\n  "), seen.String(), redact(out.stdout), redact(out.stderr))
	}
}

// parseLine reads the runner's one line of JSON.
func parseLine(stdout []byte) (map[string]any, string) {
	text := strings.TrimSuffix(string(stdout), "\n")
	if text == "" || strings.Contains(text, "\n") {
		return nil, "the runner must print exactly one line on standard output"
	}
	var line map[string]any
	if err := json.Unmarshal([]byte(text), &line); err != nil {
		return nil, fmt.Sprintf("the line is not a JSON object: %v", err)
	}
	return line, ""
}

// unknownKey is a well-formed API key that no account has.
func unknownKey(t *testing.T) string {
	t.Helper()
	keys, err := apikeys.New(config.DevelopmentSecret)
	if err != nil {
		t.Fatal(err)
	}
	key, _, err := keys.Generate()
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
