package systest

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestGlibcTunables: the value a real process started with, whole, with one,
// two and three tunables (glibc takes each), one glibc does not know, and
// none.
func TestGlibcTunables(t *testing.T) {
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for _, c := range []struct {
		env  []string
		want string
		set  bool
	}{
		{[]string{"A=1", "GLIBC_TUNABLES=glibc.malloc.trim_threshold=67108864", "Z=2"}, "glibc.malloc.trim_threshold=67108864", true},
		{[]string{"GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864", "Z=2"},
			"glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864", true},
		{[]string{"A=1", "GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864:glibc.malloc.arena_max=2"},
			"glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864:glibc.malloc.arena_max=2", true},
		{[]string{"GLIBC_TUNABLES=glibc.malloc.no_such_tunable=1:glibc.malloc.arena_max=2", "Z=2"},
			"glibc.malloc.no_such_tunable=1:glibc.malloc.arena_max=2", true},
		{[]string{"GLIBC_TUNABLES=", "Z=2"}, "", true},
		{[]string{"A=1"}, "", false},
	} {
		cmd := exec.Command("sleep", "30")
		cmd.Env = c.env
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Until sleep sleeps: while exec is under way the kernel shows an
		// empty block.
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			st, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", cmd.Process.Pid))
			if err == nil && strings.Contains(string(st), ") S ") {
				break
			}
		}
		got, set, err := GlibcTunables(cmd.Process.Pid)
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if err != nil {
			t.Fatal(err)
		}
		if got != c.want || set != c.set {
			t.Errorf("env %q: GlibcTunables = %q, %v; want %q, %v", c.env, got, set, c.want, c.set)
		}
	}
}
