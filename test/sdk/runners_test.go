package sdk_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// sdk is one SDK and how to run its conformance runner
// (sdk/conformance/README.md).
type sdk struct {
	name   string // its folder under sdk/ and its subtest
	runner string // the runner, under its folder: its presence means the SDK is there
	// prepare checks the tools the runner needs and builds what it runs,
	// answering its command line.
	prepare func(t *testing.T, dir string) []string
}

var sdks = []sdk{
	{name: "go", runner: "conformance/runner", prepare: prepareGo},
	{name: "php", runner: "conformance/runner.php", prepare: preparePHP},
	{name: "python", runner: "conformance/runner.py", prepare: preparePython},
	{name: "typescript", runner: "conformance/runner.mjs", prepare: prepareTypeScript},
}

// unavailable skips the SDK for a missing tool or runner, except on CI
// (CI=true), where every SDK must run.
func unavailable(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format+" (scripts/ensure-sdk-tools.sh installs the tools)", args...)
}

// tool is the path of a program on PATH, or the SDK is unavailable.
func tool(t *testing.T, name string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		unavailable(t, "%s is not installed", name)
	}
	return path
}

// run runs a preparation command in dir, failing the test when it fails.
func run(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s (in %s): %v\n%s", name, strings.Join(args, " "), dir, err, out)
	}
	return string(out)
}

func prepareGo(t *testing.T, dir string) []string {
	bin := filepath.Join(t.TempDir(), "runner")
	run(t, dir, tool(t, "go"), "build", "-o", bin, "./conformance/runner")
	return []string{bin}
}

func preparePHP(t *testing.T, dir string) []string {
	php := tool(t, "php")
	if err := exec.Command(php, "-r", `exit(PHP_VERSION_ID >= 80100 && extension_loaded("curl") ? 0 : 1);`).Run(); err != nil {
		unavailable(t, "the PHP SDK needs PHP >= 8.1 with the curl extension (Debian: php-cli php-curl)")
	}
	return []string{php, filepath.Join(dir, "conformance/runner.php")}
}

func preparePython(t *testing.T, dir string) []string {
	out, err := exec.Command(tool(t, "python3"), "-c", "import sys; print(sys.version_info >= (3, 9)); print(sys.executable)").Output()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err != nil || len(lines) != 2 || lines[0] != "True" {
		unavailable(t, "the Python SDK needs python3 >= 3.9")
	}
	// The interpreter itself, not a version manager's shim (pyenv's takes
	// half a second to start).
	return []string{lines[1], filepath.Join(dir, "conformance/runner.py")}
}

func prepareTypeScript(t *testing.T, dir string) []string {
	node := tool(t, "node")
	v := strings.TrimPrefix(strings.TrimSpace(run(t, dir, node, "--version")), "v")
	if major, _ := strconv.Atoi(strings.Split(v, ".")[0]); major < 18 {
		unavailable(t, "the TypeScript SDK needs Node.js >= 18, not %s", v)
	}
	npm := tool(t, "npm")
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		run(t, dir, npm, "ci", "--no-audit", "--no-fund")
	}
	if distStale(t, dir) {
		run(t, dir, npm, "run", "build") // dist/ from the sources as they are now
	}
	return []string{node, filepath.Join(dir, "conformance/runner.mjs")}
}

// distStale tells whether the TypeScript SDK's dist/ is missing or older
// than its sources (scripts/ensure-sdk-tools.sh's rule). A fresh dist/ is
// not rebuilt: in make test the SDK's unit tests and the webhooks journey
// read it at the same time, and tsc rewrites every file.
func distStale(t *testing.T, dir string) bool {
	built, err := os.Stat(filepath.Join(dir, "dist", "index.js"))
	if err != nil {
		return true
	}
	stale := false
	for _, src := range []string{"src", "package.json", "tsconfig.json"} {
		err := filepath.WalkDir(filepath.Join(dir, src), func(_ string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if info, err := d.Info(); err != nil || info.ModTime().After(built.ModTime()) {
				stale = true
				return filepath.SkipAll
			}
			return nil
		})
		if err != nil {
			t.Fatalf("typescript: %v", err)
		}
	}
	return stale
}

// stepTimeout bounds one runner call.
const stepTimeout = time.Minute

// output is what a runner printed.
type output struct {
	stdout, stderr []byte
	took           time.Duration
	ended          time.Time // when the runner exited
}

// call runs the runner once: op on its standard input, the server and key
// in its environment.
func call(command []string, dir, baseURL, apiKey string, op []byte) (output, error) {
	ctx, cancel := context.WithTimeout(context.Background(), stepTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, command[0], command[1:]...)
	cmd.Dir = dir
	cmd.Env = append(withoutA2E(os.Environ()), "A2E_BASE_URL="+baseURL, "A2E_API_KEY="+apiKey)
	cmd.Stdin = bytes.NewReader(op)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := cmd.Run()
	out := output{stdout: stdout.Bytes(), stderr: stderr.Bytes(), took: time.Since(start), ended: time.Now()}
	if ctx.Err() != nil {
		err = errors.New("timed out after " + stepTimeout.String())
	}
	return out, err
}

// withoutA2E is env without the A2E_ variables of whoever runs the test.
func withoutA2E(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if !strings.HasPrefix(kv, "A2E_") {
			out = append(out, kv)
		}
	}
	return out
}
