package testcache_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// npmProject is a folder with a package-lock.json whose one dependency is a
// local package (file:a), so that npm ci installs it without a registry.
func npmProject(t *testing.T, dir string, version string) {
	t.Helper()
	files := map[string]string{
		"scripts/npm-install.sh": "",
		"pkg/.npmrc":             "install-links=true\n",
		"pkg/package.json":       `{"name":"sandbox","version":"1.0.0","private":true,"dependencies":{"a":"file:a"}}`,
		"pkg/a/package.json":     `{"name":"a","version":"` + version + `"}`,
		"pkg/a/index.js":         "module.exports = '" + version + "';\n",
		"pkg/package-lock.json": `{"name":"sandbox","version":"1.0.0","lockfileVersion":3,"requires":true,"packages":{` +
			`"":{"name":"sandbox","version":"1.0.0","dependencies":{"a":"file:a"}},` +
			`"node_modules/a":{"version":"` + version + `","resolved":"file:a"}}}`,
	}
	script, err := os.ReadFile(filepath.Join(repoRoot, "scripts/npm-install.sh"))
	if err != nil {
		t.Fatal(err)
	}
	files["scripts/npm-install.sh"] = string(script)
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

// scripts/npm-install.sh: the first npm ci of a lock file keeps a copy of
// node_modules; another clone with the same lock file gets that copy without
// npm; another lock file installs anew; two copies per folder are kept;
// NODE_MODULES_CACHE=0 always runs npm ci.
func TestNodeModulesCopiedPerLockFile(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"npm", "node", "bash", "sha256sum"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed: %v", tool, err)
		}
	}
	cache := t.TempDir()
	// A PATH whose npm fails: what runs with it cannot have installed.
	noNPM := t.TempDir()
	if err := os.WriteFile(filepath.Join(noNPM, "npm"), []byte("#!/bin/sh\necho npm ran >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	install := func(dir string, withNPM bool, extra ...string) (string, error) {
		cmd := exec.Command("scripts/npm-install.sh", "pkg")
		cmd.Dir = dir
		path := os.Getenv("PATH")
		if !withNPM {
			path = noNPM + string(os.PathListSeparator) + path
		}
		cmd.Env = append(os.Environ(), "NODE_MODULES_CACHE_DIR="+cache, "NODE_MODULES_CACHE=1", "PATH="+path)
		cmd.Env = append(cmd.Env, extra...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	installed := func(dir, want string) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, "pkg/node_modules/a/index.js"))
		if err != nil || !strings.Contains(string(b), want) {
			t.Fatalf("%s: node_modules/a/index.js = %q (%v), want version %s", dir, b, err, want)
		}
	}
	kept := func() []string {
		t.Helper()
		entries, err := os.ReadDir(cache)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, e := range entries {
			if _, err := os.Stat(filepath.Join(cache, e.Name(), ".complete")); err == nil {
				names = append(names, e.Name())
			}
		}
		return names
	}

	first := t.TempDir()
	npmProject(t, first, "1.0.0")
	if out, err := install(first, true); err != nil {
		t.Fatalf("first install: %v\n%s", err, out)
	}
	installed(first, "1.0.0")
	if got := kept(); len(got) != 1 || !strings.HasPrefix(got[0], "pkg-") {
		t.Fatalf("kept after the first npm ci: %v, want one copy named pkg-<key>", got)
	}
	// Up to date: nothing runs, npm or not.
	if out, err := install(first, false); err != nil || out != "" {
		t.Errorf("an up-to-date node_modules was installed again (%v):\n%s", err, out)
	}

	second := t.TempDir()
	npmProject(t, second, "1.0.0")
	out, err := install(second, false)
	if err != nil || !strings.Contains(out, "copied from") {
		t.Fatalf("a second clone with the same lock file did not get the copy (%v):\n%s", err, out)
	}
	installed(second, "1.0.0")
	if out, err := install(second, false); err != nil || out != "" {
		t.Errorf("the copy reads as out of date next time (%v):\n%s", err, out)
	}

	// Another lock file: npm ci, without npm it fails.
	for i, version := range []string{"2.0.0", "3.0.0"} {
		dir := t.TempDir()
		npmProject(t, dir, version)
		if out, err := install(dir, false); err == nil {
			t.Fatalf("lock file %s installed without npm:\n%s", version, out)
		}
		if out, err := install(dir, true); err != nil {
			t.Fatalf("lock file %s: %v\n%s", version, err, out)
		}
		installed(dir, version)
		if got := kept(); len(got) != i+2 && len(got) != 2 {
			t.Errorf("kept after lock file %s: %v", version, got)
		}
	}
	if got := kept(); len(got) != 2 {
		t.Errorf("kept after three lock files: %v, want the two newest", got)
	}

	// NODE_MODULES_CACHE=0: npm ci even though a copy is kept.
	off := t.TempDir()
	npmProject(t, off, "3.0.0")
	if out, err := install(off, false, "NODE_MODULES_CACHE=0"); err == nil || !strings.Contains(out, "npm ran") {
		t.Errorf("NODE_MODULES_CACHE=0 did not run npm ci (%v):\n%s", err, out)
	}
}
