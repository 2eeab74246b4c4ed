package systest

import (
	"fmt"
	"os"
	"strings"
)

// GlibcTunables is the GLIBC_TUNABLES process pid started with, read from
// /proc/pid/environ, and whether it was set. That block is the environment
// the process was started with, as the kernel placed it, and glibc's loader
// (2.36, Debian bookworm's) writes a NUL over the ':' after each tunable it
// takes while parsing it there (the process's own environment is a copy);
// the entries that follow GLIBC_TUNABLES= and start with "glibc." are its
// tunables, joined with ':' again here. Newer glibc leaves the block as it
// was, which reads the same.
func GlibcTunables(pid int) (value string, set bool, err error) {
	block, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		return "", false, err
	}
	entries := strings.Split(string(block), "\x00")
	for i, e := range entries {
		v, ok := strings.CutPrefix(e, "GLIBC_TUNABLES=")
		if !ok {
			continue
		}
		parts := []string{v}
		for _, next := range entries[i+1:] {
			if !strings.HasPrefix(next, "glibc.") {
				break
			}
			parts = append(parts, next)
		}
		return strings.Join(parts, ":"), true, nil
	}
	return "", false, nil
}
