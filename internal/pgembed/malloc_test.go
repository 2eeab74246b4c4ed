package pgembed

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestServerMalloc: the server's environment carries serverMalloc unless
// the caller set GLIBC_TUNABLES, and glibc's loader reads both of its
// tunables with their values (glibc ignores a misspelt tunable silently).
func TestServerMalloc(t *testing.T) {
	env := withServerMalloc([]string{"LC_ALL=C", "PATH=/usr/bin"})
	if !slices.Equal(env, []string{"LC_ALL=C", "PATH=/usr/bin", "GLIBC_TUNABLES=" + serverMalloc}) {
		t.Fatalf("env %q", env)
	}
	own := []string{"GLIBC_TUNABLES=glibc.malloc.arena_max=2", "LC_ALL=C"}
	if got := withServerMalloc(slices.Clone(own)); !slices.Equal(got, own) {
		t.Fatalf("the caller's GLIBC_TUNABLES replaced: %q", got)
	}

	// make ha-up's servers take the same value (scripts/ha-lib.sh's copy)
	ha, err := os.ReadFile("../../scripts/ha-lib.sh")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ha), "\nHA_MALLOC="+serverMalloc+"\n") {
		t.Errorf("scripts/ha-lib.sh's HA_MALLOC is not serverMalloc (%s)", serverMalloc)
	}

	loader := "/lib64/ld-linux-x86-64.so.2"
	if _, err := os.Stat(loader); err != nil {
		t.Skipf("no glibc loader at %s: %v", loader, err)
	}
	cmd := exec.Command(loader, "--list-tunables")
	cmd.Env = withServerMalloc(nil)
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("%s --list-tunables: %v", loader, err)
	}
	for _, want := range []string{"glibc.malloc.mmap_threshold: 0x2000000 ", "glibc.malloc.trim_threshold: 0x4000000 "} {
		if !strings.Contains(string(out), want) {
			t.Errorf("glibc did not take %q:\n%s", want, out)
		}
	}
}
