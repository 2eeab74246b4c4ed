package pgembed

import "strings"

// serverMalloc is the GLIBC_TUNABLES the private server starts with: glibc's
// malloc keeps freed memory at the top of a backend's heap up to 64 MiB
// (trim_threshold) and serves requests below 32 MiB from the heap
// (mmap_threshold), the values its own dynamic thresholds reach at their
// ceiling, set from the start.
//
// With glibc's defaults (128 KiB, raised as large blocks are freed) a
// backend running the group commit's statements grew its heap for a
// statement's hash table and function-scan tuplestore (brk, then a page
// fault per fresh page) and gave it back when the statement ended (brk
// down, with a cross-core TLB flush): ~0.23 brk calls and ~0.7 more page
// faults a spend, none for a floor transaction. On this
// project's virtual machines a fault and a cross-core flush each cost
// a trap to the hypervisor; held, the memory is reused by the next
// statement (docs/benchmarks.md, issue 36, thirteenth session). A backend
// keeps up to 64 MiB of freed heap at its top; a request of 32 MiB or more (an
// index build's sort) is still mapped apart and returned when freed.
const serverMalloc = "glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864"

// withServerMalloc is env with GLIBC_TUNABLES=serverMalloc added, or env as
// it is when it sets GLIBC_TUNABLES already (the caller's choice stands).
// Other C libraries ignore the variable.
func withServerMalloc(env []string) []string {
	for _, kv := range env {
		if strings.HasPrefix(kv, "GLIBC_TUNABLES=") {
			return env
		}
	}
	return append(env, "GLIBC_TUNABLES="+serverMalloc)
}
