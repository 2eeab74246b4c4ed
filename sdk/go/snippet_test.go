package a2e_test

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// snippetFile holds the API Keys page's examples (webapp/), the Go one among them.
const snippetFile = "../../webapp/src/features/api-keys/components/snippets.ts"

// goSnippet is the API Keys page's Go example, as the page shows it, for
// the key and base URL given: its code lines, JavaScript template strings,
// unquoted.
func goSnippet(t *testing.T, apiKey, baseURL string) string {
	t.Helper()
	b, err := os.ReadFile(snippetFile)
	if err != nil {
		t.Skipf("no webapp here: %v", err)
	}
	src := string(b)
	start := strings.Index(src, "id: 'go'")
	if start < 0 {
		t.Fatal("no Go snippet in " + snippetFile)
	}
	src = src[start:]
	src = src[strings.Index(src, "code: [")+len("code: ["):]
	src = src[:strings.Index(src, "].join")]
	r := strings.NewReplacer(`\t`, "\t", `\\`, `\`, "${apiKey}", apiKey, "${apiBaseUrl}", baseURL,
		"${EXAMPLE_URL}", amazonURL)
	var lines []string
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSuffix(strings.TrimSpace(line), ",")
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, "`") || !strings.HasSuffix(line, "`") {
			t.Fatalf("a snippet line that is not a template string: %s", line)
		}
		lines = append(lines, r.Replace(line[1:len(line)-1]))
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestTheAPIKeysPagesGoExampleRuns builds and runs the page's Go example
// against a server whose create answer is lost (commit_outcome_unknown) and
// resolved by the read-back, which knows no creditsRemaining: the example
// must print the listing, not dereference a nil pointer.
func TestTheAPIKeysPagesGoExampleRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if r.Method == http.MethodPost {
			reply(w, 503, commitUnknown, "Retry-After", "0.01")
			return
		}
		reply(w, 200, `{"data":[`+strings.Replace(listingJSON, `"creditsRemaining":4,`, "", 1)+`],"nextCursor":null}`)
	})
	code := goSnippet(t, testKey, s.url)
	dir, err := os.MkdirTemp(".", "snippet-") // inside the module, so it imports the SDK as it is here
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(code), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "run", "./"+filepath.Base(dir)).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "L1 queued\n") {
		t.Fatalf("go run the example: %v\n%s\nthe example:\n%s", err, out, code)
	}
}
