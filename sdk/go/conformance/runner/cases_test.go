package main

// sdk/conformance/cases.json run through the runner's operations against
// the case-driven fake (casefake_test.go): each case's steps answered as
// the case says the server answers, the line checked against expect and
// the requests against the protocol. test/sdk runs the same cases against
// the real bin/api with the built runner.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	a2e "github.com/a2e-automation/app/sdk/go"
)

const casesFile = "../../../conformance/cases.json"

var errorFields = []string{"class", "code", "status", "requestId", "message", "idempotencyKey", "retryAfter", "outcomeUnknown", "creditsRemaining", "spendLimit"}

func TestCases(t *testing.T) {
	b, err := os.ReadFile(casesFile)
	if os.IsNotExist(err) {
		t.Skip("not in the repository: no sdk/conformance/cases.json")
	}
	if err != nil {
		t.Fatal(err)
	}
	var file struct{ Cases []conformanceCase }
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	for _, c := range file.Cases {
		t.Run(c.Name, func(t *testing.T) { runCase(t, c) })
	}
}

func runCase(t *testing.T, c conformanceCase) {
	const apiKey = "a2e_test_cases_secret_0123456789"
	fake := newCaseFake(t)
	vars := map[string]any{"key": "key-" + fresh(), "email": "seller@example.com", "otherListingId": fresh()}
	for i, step := range c.Steps {
		op := substitute(step.Op, vars).(obj)
		expect := substitute(step.Expect, vars).(obj)
		p := planOf(step, op, expect, vars["email"].(string))
		fake.start(p)
		key, baseURL := apiKey, fake.url
		switch step.Arrange {
		case "unknownKey":
			key = "a2e_test_of_no_account_0123456789"
		case "noServer":
			baseURL = "http://127.0.0.1:9"
		}
		var o operation
		raw, _ := json.Marshal(op)
		if err := json.Unmarshal(raw, &o); err != nil {
			t.Fatal(err)
		}
		maxRetries := 3
		opts := []a2e.Option{a2e.WithBaseURL(baseURL)}
		if o.MaxRetries != nil {
			maxRetries = *o.MaxRetries
			opts = append(opts, a2e.WithMaxRetries(maxRetries))
		}
		started := time.Now()
		result, err := run(context.Background(), a2e.NewClient(key, opts...), o)
		took := time.Since(started)
		if err != nil {
			t.Fatalf("step %d %s: %v", i, raw, err)
		}
		out, err := json.Marshal(result)
		if err != nil {
			t.Fatal(err)
		}
		where := fmt.Sprintf("step %d %s: %s", i, raw, out)
		if strings.Contains(string(out), key) {
			t.Fatalf("the API key printed: %s", where)
		}
		var line obj
		if err := json.Unmarshal(out, &line); err != nil {
			t.Fatal(err)
		}
		if m := mismatch(expect, line, ""); m != "" {
			t.Fatalf("%s\n%s", m, where)
		}
		if e, failed := line["error"].(obj); failed {
			for _, f := range errorFields {
				if _, ok := e[f]; !ok {
					t.Fatalf("error.%s missing: %s", f, where)
				}
			}
		}
		if step.WithinSeconds > 0 && took > time.Duration(step.WithinSeconds*float64(time.Second)) {
			t.Fatalf("took %s, longer than %v s: %s", took, step.WithinSeconds, where)
		}
		if step.Arrange != "noServer" {
			if m := fake.requestsMismatch(key, maxRetries); m != "" {
				t.Fatalf("%s\n%s", m, where)
			}
		}
		for name, path := range step.Save {
			vars[name] = at(line, path)
		}
	}
}
