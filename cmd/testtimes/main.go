// Command testtimes reads `go test -json` on stdin and prints what plain
// `go test` would (each package's ok/FAIL line, a failed test's output,
// build errors), then the slowest packages and tests. make go-test pipes
// through it so that make test's log says where the time went:
//
//	go test -json ./... | go run ./cmd/testtimes -top 10
//
// Its exit status is 0 whatever the tests did; go test's own (pipefail)
// is the verdict.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// event is one line of `go test -json` (go doc test2json).
type event struct {
	Action     string
	Package    string
	ImportPath string // build-output, build-fail
	Test       string
	Elapsed    float64
	Output     string
}

// timing is a package's or a test's wall time.
type timing struct {
	Name    string
	Seconds float64
}

// summary folds the events: output to print as it comes, timings for the end.
type summary struct {
	out      io.Writer
	buffered map[string][]string // a running test's output, printed if it fails
	packages []timing
	tests    []timing
}

func newSummary(out io.Writer) *summary {
	return &summary{out: out, buffered: map[string][]string{}}
}

// line handles one line of input; a line that is not an event is printed.
func (s *summary) line(raw []byte) {
	var e event
	if err := json.Unmarshal(raw, &e); err != nil || e.Action == "" {
		fmt.Fprintln(s.out, string(raw))
		return
	}
	switch {
	case e.Action == "build-output":
		fmt.Fprint(s.out, e.Output)
	case e.Test == "":
		s.packageEvent(e)
	default:
		s.testEvent(e)
	}
}

func (s *summary) packageEvent(e event) {
	switch e.Action {
	case "output":
		// Plain go test prints a passing package's "PASS" only with -v.
		if e.Output != "PASS\n" {
			fmt.Fprint(s.out, e.Output)
		}
	case "pass", "fail":
		if e.Elapsed > 0 {
			s.packages = append(s.packages, timing{short(e.Package), e.Elapsed})
		}
	}
}

func (s *summary) testEvent(e event) {
	key := e.Package + " " + e.Test
	switch e.Action {
	case "output":
		s.buffered[key] = append(s.buffered[key], e.Output)
	case "fail":
		fmt.Fprint(s.out, strings.Join(s.buffered[key], ""))
		fallthrough
	case "pass", "skip":
		delete(s.buffered, key)
		if e.Action != "skip" && !strings.Contains(e.Test, "/") {
			s.tests = append(s.tests, timing{short(e.Package) + " " + e.Test, e.Elapsed})
		}
	}
}

// report prints the top slowest packages and top-level tests.
func (s *summary) report(top int) {
	print := func(title string, ts []timing) {
		if len(ts) == 0 {
			return
		}
		sort.SliceStable(ts, func(i, j int) bool { return ts[i].Seconds > ts[j].Seconds })
		fmt.Fprintf(s.out, "%s:\n", title)
		for _, t := range ts[:min(top, len(ts))] {
			fmt.Fprintf(s.out, "  %7.1f s  %s\n", t.Seconds, t.Name)
		}
	}
	print("slowest Go packages", s.packages)
	print("slowest Go tests", s.tests)
}

// module is this repository's module path, dropped from package names.
const module = "github.com/a2e-automation/app/"

func short(pkg string) string { return strings.TrimPrefix(pkg, module) }

func main() {
	top := flag.Int("top", 10, "how many of the slowest packages and tests to list")
	flag.Parse()
	s := newSummary(os.Stdout)
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	for in.Scan() {
		s.line(in.Bytes())
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "testtimes:", err)
	}
	s.report(*top)
}
