package sdk_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// casesFile is the one list of cases every SDK runs.
const casesFile = "../../sdk/conformance/cases.json"

// testCase is one case of cases.json (its format: sdk/conformance/README.md).
type testCase struct {
	Name    string `json:"name"`
	Account struct {
		Credits int64 `json:"credits"`
		Frozen  bool  `json:"frozen"`
		// DailyLimit: a daily spend limit of so many credits.
		DailyLimit *int64 `json:"dailyLimit"`
		// TestMode: the runner's key is a test-mode key (a2e_test_), which
		// spends from the sandbox's 1,000 test credits (issue 34).
		TestMode bool `json:"testMode"`
	} `json:"account"`
	OtherListing bool   `json:"otherListing"` // ${otherListingId}: another account's listing
	Steps        []step `json:"steps"`
	Charges      int    `json:"charges"` // spends of the account at the end (domain.SpendOf)
}

// step is one runner call of a case.
type step struct {
	Arrange       string            `json:"arrange"` // one of arrangements, done by the driver
	Op            map[string]any    `json:"op"`
	Expect        map[string]any    `json:"expect"`
	Save          map[string]string `json:"save"` // variable: dotted path in the output
	WithinSeconds float64           `json:"withinSeconds"`
}

// arrangements are what a step may ask of the driver.
var arrangements = map[string]string{
	"":             "nothing",
	"unknownKey":   "A2E_API_KEY is a well-formed key of no account",
	"rateLimited":  "the key's per-minute limit is used up right before the step's first request reaches bin/api",
	"databaseDown": "PostgreSQL refuses bin/api while it answers the step's first request (503)",
	"commitCut":    "the COMMIT of the step's create (its idempotencyKey) reaches PostgreSQL, then the connection is cut",
	"commitLost":   "the connection is cut instead of forwarding that COMMIT, so PostgreSQL rolls back",
	"noServer":     "A2E_BASE_URL is an address where nothing listens",
}

// loadCases reads cases.json, refusing unknown fields and arrangements.
func loadCases(t *testing.T) []testCase {
	t.Helper()
	data, err := os.ReadFile(casesFile)
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		About string     `json:"about"`
		Cases []testCase `json:"cases"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&file); err != nil {
		t.Fatalf("%s: %v", casesFile, err)
	}
	for _, c := range file.Cases {
		for i, s := range c.Steps {
			if _, ok := arrangements[s.Arrange]; !ok {
				t.Fatalf("%s: case %q step %d: unknown arrangement %q", casesFile, c.Name, i+1, s.Arrange)
			}
		}
	}
	return file.Cases
}

// Patterns in "expect" that match a kind of value rather than one value.
const (
	anyString   = "<string>"   // a non-empty string
	anyPositive = "<positive>" // a number above zero
)

var variable = regexp.MustCompile(`\$\{([A-Za-z]+)\}`)

// expand replaces every ${name} in v's strings with vars[name].
func expand(v any, vars map[string]string) (any, error) {
	switch v := v.(type) {
	case string:
		var missing []string
		out := variable.ReplaceAllStringFunc(v, func(m string) string {
			name := variable.FindStringSubmatch(m)[1]
			val, ok := vars[name]
			if !ok {
				missing = append(missing, name)
			}
			return val
		})
		if len(missing) > 0 {
			return nil, fmt.Errorf("no variable %s", strings.Join(missing, ", "))
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			e, err := expand(x, vars)
			if err != nil {
				return nil, err
			}
			out[k] = e
		}
		return out, nil
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			e, err := expand(x, vars)
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		return out, nil
	}
	return v, nil
}

// mismatch says where got differs from want, "" when it matches. An object
// matches when every field of want matches (null: absent or null); an array
// when it has as many items, each matching; the patterns anyString and
// anyPositive a kind of value; anything else only an equal value.
func mismatch(want, got any, path string) string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: want an object, got %s", path, show(got))
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if m := mismatch(w[k], g[k], path+"."+k); m != "" {
				return m
			}
		}
		return ""
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Sprintf("%s: want %d items, got %s", path, len(w), show(got))
		}
		for i := range w {
			if m := mismatch(w[i], g[i], fmt.Sprintf("%s[%d]", path, i)); m != "" {
				return m
			}
		}
		return ""
	case string:
		switch w {
		case anyString:
			if s, ok := got.(string); ok && s != "" {
				return ""
			}
		case anyPositive:
			if n, ok := got.(float64); ok && n > 0 {
				return ""
			}
		default:
			if got == w {
				return ""
			}
		}
	default:
		if got == want {
			return ""
		}
	}
	return fmt.Sprintf("%s: want %s, got %s", path, show(want), show(got))
}

func show(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// lookup is the string at a dotted path of v ("result.id").
func lookup(v any, path string) (string, bool) {
	for _, k := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return "", false
		}
		v = m[k]
	}
	s, ok := v.(string)
	return s, ok
}

// errorFields are the fields of every error line (null when the error has
// none).
var errorFields = []string{"class", "code", "status", "requestId", "message", "idempotencyKey", "retryAfter",
	"outcomeUnknown", "creditsRemaining", "spendLimit"}

// protocolProblem says how line breaks the runner protocol, "" if not.
func protocolProblem(line map[string]any) string {
	ok, isBool := line["ok"].(bool)
	switch {
	case !isBool:
		return `"ok" is not true or false`
	case ok:
		if _, has := line["result"]; !has {
			return `"ok": true without "result"`
		}
	default:
		e, isObj := line["error"].(map[string]any)
		if !isObj {
			return `"ok": false without an "error" object`
		}
		for _, f := range errorFields {
			if _, has := e[f]; !has {
				return fmt.Sprintf("the error has no %q (null when it does not apply)", f)
			}
		}
	}
	return ""
}

func TestMismatch(t *testing.T) {
	got := map[string]any{"ok": false, "error": map[string]any{"status": 402.0, "retryAfter": nil, "requestId": "r"},
		"result": map[string]any{"data": []any{map[string]any{"id": "a"}}}}
	for _, c := range []struct {
		want string
		ok   bool
	}{
		{`{"ok": false, "error": {"status": 402, "requestId": "<string>", "retryAfter": null, "absent": null}}`, true},
		{`{"result": {"data": [{"id": "a"}]}}`, true},
		{`{"result": {"data": []}}`, false},
		{`{"error": {"retryAfter": "<positive>"}}`, false},
		{`{"error": {"status": "<positive>"}}`, true},
		{`{"error": {"requestId": "s"}}`, false},
		{`{"ok": true}`, false},
	} {
		var want any
		if err := json.Unmarshal([]byte(c.want), &want); err != nil {
			t.Fatal(err)
		}
		if m := mismatch(want, got, "$"); (m == "") != c.ok {
			t.Errorf("%s: mismatch %q, want match %v", c.want, m, c.ok)
		}
	}
	if _, err := expand("${nope}", nil); err == nil {
		t.Error("an unknown variable expanded")
	}
	if v, _ := expand(map[string]any{"k": []any{"${a}-x"}}, map[string]string{"a": "1"}); show(v) != `{"k":["1-x"]}` {
		t.Errorf("expand = %s", show(v))
	}
}
