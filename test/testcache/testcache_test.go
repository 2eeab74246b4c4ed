// Package testcache_test checks make test's stage cache (scripts/test.sh,
// scripts/test-cache.sh) on throwaway git repositories: a key follows the
// files a stage reads as they are in the working tree, and only a stage that
// passed is remembered.
package testcache_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// repoRoot is this repository's root (the test runs in test/testcache).
const repoRoot = "../.."

// sandbox is a git repository with the project's test scripts and a few
// files in the folders the stages read.
type sandbox struct {
	t     *testing.T
	dir   string
	cache string
}

// Each test has a sandbox of its own and runs beside the others: they wait on
// git, bash and the programs' --version far more than they compute (about
// 190 s one after the other on the loaded two-core machine).
func newSandbox(t *testing.T) *sandbox {
	t.Helper()
	t.Parallel()
	for _, tool := range []string{"git", "bash", "make", "sha256sum"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed: %v", tool, err)
		}
	}
	s := &sandbox{t: t, dir: t.TempDir(), cache: t.TempDir()}
	// The scripts are read here (not run from the tree) so that go test's
	// cache keeps this result only while they are unchanged.
	for _, name := range []string{"scripts/test-cache.sh", "scripts/test.sh", "scripts/timed"} {
		b, err := os.ReadFile(filepath.Join(repoRoot, name))
		if err != nil {
			t.Fatal(err)
		}
		s.write(name, string(b))
		if err := os.Chmod(filepath.Join(s.dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.write(".gitignore", "/ignored/\n")
	s.write("deploy/prometheus/alerts.yml", "groups: []\n")
	s.write("webapp/src/app.ts", "export const a = 1;\n")
	s.write("sdk/python/a.py", "A = 1\n")
	// The journeys' key lists the Go packages the commands build from.
	s.write("go.mod", "module example.com/sandbox\n\ngo 1.22\n")
	for _, cmd := range []string{"api", "projector", "devdb"} {
		s.write("cmd/"+cmd+"/main.go", "package main\n\nfunc main() {}\n")
	}
	// Each stage passes unless FAIL names it.
	var mk strings.Builder
	mk.WriteString("test-tools:\n\t@true\n")
	for _, stage := range []string{"vet", "openapi-lint", "alerts-test", "go-test", "sdk-test", "webapp-test", "e2e"} {
		mk.WriteString(stage + ":\n\t@echo ran " + stage + "; test \"$$FAIL\" != " + stage + "\n")
	}
	s.write("Makefile", mk.String())
	s.git("init", "-q")
	s.git("add", "-A")
	s.git("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-qm", "start")
	return s
}

func (s *sandbox) write(name, content string) {
	s.t.Helper()
	path := filepath.Join(s.dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// env is the scripts' environment: the pass files under s.cache, no CI.
func (s *sandbox) env(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CI=") && !strings.HasPrefix(kv, "TEST_CACHE") && !strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "MAKE") &&
			!strings.HasPrefix(kv, "TEST_LANES=") && !strings.HasPrefix(kv, "E2E_WORKERS=") && !strings.HasPrefix(kv, "TEST_RACE=") {
			env = append(env, kv)
		}
	}
	return append(append(env, "TEST_CACHE_DIR="+s.cache, "TEST_DATABASE_URL=unused"), extra...)
}

func (s *sandbox) run(extra []string, name string, args ...string) (string, error) {
	s.t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = s.dir
	cmd.Env = s.env(extra...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (s *sandbox) git(args ...string) {
	s.t.Helper()
	if out, err := s.run(nil, "git", args...); err != nil {
		s.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func (s *sandbox) key(stage string) string {
	s.t.Helper()
	out, err := s.run(nil, "scripts/test-cache.sh", "key", stage)
	if err != nil {
		s.t.Fatalf("key %s: %v\n%s", stage, err, out)
	}
	key := strings.TrimSpace(out)
	if len(key) != 32 {
		s.t.Fatalf("key %s: %q is not a key", stage, out)
	}
	return key
}

// makeTest runs scripts/test.sh in one lane (the stages in order, as CI
// runs them) with extra environment; it returns the output and whether it
// passed.
func (s *sandbox) makeTest(extra ...string) (string, bool) {
	s.t.Helper()
	return s.makeTestLanes(append([]string{"TEST_LANES=1"}, extra...)...)
}

// makeTestLanes runs scripts/test.sh with extra environment only: the lanes
// it chooses itself unless TEST_LANES is in extra.
func (s *sandbox) makeTestLanes(extra ...string) (string, bool) {
	s.t.Helper()
	out, err := s.run(append([]string{"MAKE=make"}, extra...), "scripts/test.sh")
	return out, err == nil
}

func (s *sandbox) passes() []string {
	s.t.Helper()
	entries, err := os.ReadDir(s.cache)
	if err != nil && !os.IsNotExist(err) {
		s.t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name()[:len(e.Name())-33]) // "-" and the key
	}
	return names
}

func TestKeyFollowsTheWorkingTree(t *testing.T) {
	s := newSandbox(t)
	alerts, webapp := s.key("alerts-test"), s.key("webapp-test")
	if again := s.key("alerts-test"); again != alerts {
		t.Fatalf("the same tree gave two keys: %s, %s", alerts, again)
	}

	// An edit, not committed: a new key; undone: the old one.
	s.write("deploy/prometheus/alerts.yml", "groups: [] # edited\n")
	if k := s.key("alerts-test"); k == alerts {
		t.Error("an edited alerts.yml kept alerts-test's key")
	}
	if k := s.key("webapp-test"); k != webapp {
		t.Error("an edit in deploy/ changed webapp-test's key, which does not read it")
	}
	s.write("deploy/prometheus/alerts.yml", "groups: []\n")
	if k := s.key("alerts-test"); k != alerts {
		t.Error("undoing the edit did not give the old key back")
	}

	// An untracked file counts; an ignored one does not.
	s.write("deploy/prometheus/new_test.yml", "tests: []\n")
	if k := s.key("alerts-test"); k == alerts {
		t.Error("an untracked file in deploy/prometheus kept alerts-test's key")
	}
	if err := os.Remove(filepath.Join(s.dir, "deploy/prometheus/new_test.yml")); err != nil {
		t.Fatal(err)
	}
	s.write("ignored/x", "x\n")
	if k := s.key("alerts-test"); k != alerts {
		t.Error("an ignored file changed alerts-test's key")
	}

	// A pass without the race detector is not one with it: go-test's and
	// sdk-test's keys follow TEST_RACE, the others' do not.
	for _, stage := range []string{"go-test", "sdk-test", "webapp-test"} {
		plain := s.key(stage)
		out, err := s.run([]string{"TEST_RACE=1"}, "scripts/test-cache.sh", "key", stage)
		if err != nil {
			t.Fatalf("key %s with TEST_RACE=1: %v\n%s", stage, err, out)
		}
		if raced := strings.TrimSpace(out); (raced != plain) != (stage != "webapp-test") {
			t.Errorf("%s's key: %s without TEST_RACE, %s with TEST_RACE=1", stage, plain, raced)
		}
	}

	// A staged change counts the same as an unstaged one.
	s.write("webapp/src/app.ts", "export const a = 2;\n")
	unstaged := s.key("webapp-test")
	s.git("add", "webapp/src/app.ts")
	if k := s.key("webapp-test"); k == webapp || k != unstaged {
		t.Errorf("webapp-test's key: %s at first, %s edited, %s staged", webapp, unstaged, k)
	}
}

func TestOnlyAPassIsRemembered(t *testing.T) {
	s := newSandbox(t)

	out, ok := s.makeTest("FAIL=alerts-test")
	if ok {
		t.Fatalf("make test passed with a failing alerts-test:\n%s", out)
	}
	if got := strings.Join(s.passes(), " "); got != "openapi-lint vet" {
		t.Fatalf("passes kept after alerts-test failed: %q, want only openapi-lint's and vet's\n%s", got, out)
	}

	out, ok = s.makeTest()
	if !ok {
		t.Fatalf("make test failed:\n%s", out)
	}
	for _, want := range []string{"== vet: cached (passed at ", "== openapi-lint: cached (passed at ", "ran alerts-test", "ran e2e"} {
		if !strings.Contains(out, want) {
			t.Errorf("the second run does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "ran openapi-lint") {
		t.Errorf("openapi-lint ran again with the same inputs:\n%s", out)
	}

	// Everything passed: a third run runs nothing and says so.
	out, ok = s.makeTest()
	if !ok || strings.Contains(out, "ran ") || !strings.Contains(out, "e2e cached") || !strings.Contains(out, "vet cached") {
		t.Errorf("the third run, nothing changed (passed %v):\n%s", ok, out)
	}

	// A changed input runs the stage that reads it, and only that one.
	s.write("webapp/src/app.ts", "export const a = 3;\n")
	out, _ = s.makeTest()
	if !strings.Contains(out, "ran webapp-test") || strings.Contains(out, "ran alerts-test") || strings.Contains(out, "ran vet") {
		t.Errorf("after a webapp edit, want webapp-test run, alerts-test and vet cached:\n%s", out)
	}

	// CI=true and TEST_CACHE=0 run every stage and keep nothing new.
	before := len(s.passes())
	s.write("sdk/python/a.py", "A = 2\n")
	for _, env := range []string{"CI=true", "TEST_CACHE=0"} {
		out, ok = s.makeTest(env)
		if !ok || strings.Contains(out, "cached") || !strings.Contains(out, "ran vet") || !strings.Contains(out, "ran e2e") {
			t.Errorf("%s: want every stage run, none cached (passed %v):\n%s", env, ok, out)
		}
	}
	if after := len(s.passes()); after != before {
		t.Errorf("CI=true or TEST_CACHE=0 kept passes: %d before, %d after", before, after)
	}
}

// Outside CI make test runs two lanes: the journeys in one, the rest (the
// webapp's unit tests last) in the other. A failure stops its own lane only, and
// what passed in the other lane is kept. CI=true runs one lane.
func TestTwoLanesOutsideCIOneInCI(t *testing.T) {
	s := newSandbox(t)

	out, ok := s.makeTestLanes("FAIL=alerts-test")
	if ok {
		t.Fatalf("make test passed with a failing alerts-test:\n%s", out)
	}
	for _, want := range []string{"make test: two lanes: e2e | vet, openapi-lint, alerts-test, go-test, sdk-test, webapp-test", "(2 lanes)", "not run: go-test sdk-test webapp-test"} {
		if !strings.Contains(out, want) {
			t.Errorf("two lanes: the output does not say %q:\n%s", want, out)
		}
	}
	if got := strings.Join(s.passes(), " "); got != "e2e openapi-lint vet" {
		t.Errorf("passes kept after alerts-test failed in its lane: %q, want the other lane's too\n%s", got, out)
	}

	s.write("sdk/python/a.py", "A = 3\n")
	out, ok = s.makeTestLanes("CI=true")
	if !ok || !strings.Contains(out, "(1 lane)") || strings.Contains(out, "two lanes") {
		t.Errorf("CI=true: want one lane (passed %v):\n%s", ok, out)
	}
}

// make check's webapp half goes through scripts/test-cache.sh run.
func TestRunSkipsWhatPassed(t *testing.T) {
	s := newSandbox(t)
	if out, err := s.run(nil, "scripts/test-cache.sh", "run", "webapp-test", "false"); err == nil {
		t.Fatalf("a failing command passed:\n%s", out)
	}
	if got := s.passes(); len(got) != 0 {
		t.Fatalf("a failure kept a pass: %v", got)
	}
	if out, err := s.run(nil, "scripts/test-cache.sh", "run", "webapp-test", "echo", "ran"); err != nil || !strings.Contains(out, "ran") {
		t.Fatalf("first run (%v):\n%s", err, out)
	}
	out, err := s.run(nil, "scripts/test-cache.sh", "run", "webapp-test", "echo", "ran")
	if err != nil || strings.Contains(out, "ran\n") || !strings.Contains(out, "== webapp-test: cached (passed at ") {
		t.Errorf("second run, same inputs (%v):\n%s", err, out)
	}
	out, err = s.run([]string{"TEST_CACHE=0"}, "scripts/test-cache.sh", "run", "webapp-test", "echo", "ran")
	if err != nil || !strings.Contains(out, "ran\n") {
		t.Errorf("TEST_CACHE=0 (%v):\n%s", err, out)
	}
	s.write("webapp/src/app.ts", "export const a = 4;\n")
	out, err = s.run(nil, "scripts/test-cache.sh", "run", "webapp-test", "echo", "ran")
	if err != nil || !strings.Contains(out, "ran\n") {
		t.Errorf("after a webapp edit (%v):\n%s", err, out)
	}
}

// A pass is kept when the stage's inputs did not change while it ran; an
// edit elsewhere does not matter.
func TestAnEditWhileRunning(t *testing.T) {
	s := newSandbox(t)
	edit := func(file string) string { return "echo edited >>" + file }
	if out, err := s.run(nil, "scripts/test-cache.sh", "run", "alerts-test", "sh", "-c", edit("deploy/prometheus/alerts.yml")); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got := s.passes(); len(got) != 0 {
		t.Fatalf("alerts-test's input changed while it ran, yet a pass was kept: %v", got)
	}
	if out, err := s.run(nil, "scripts/test-cache.sh", "run", "alerts-test", "sh", "-c", edit("webapp/src/app.ts")); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got := strings.Join(s.passes(), " "); got != "alerts-test" {
		t.Fatalf("an edit outside alerts-test's inputs lost its pass: %q", got)
	}
}
