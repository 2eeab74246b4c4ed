package startup

import (
	"runtime/debug"
)

// The garbage collector's defaults for bin/api and bin/projector (issue
// 36): a spend allocates many short-lived objects across the HTTP
// exchange, the group commit and the codec, and at Go's default GOGC=100
// the collector's mark workers (9 %) and the scavenger that hands freed
// pages back to the kernel (madvise, 8 %) were a sixth of the API's CPU
// profile under bench-load; the projector's batches likewise (the
// collector and its sweeper a fifth of its profile; with these defaults
// its CPU per spend fell by a third; docs/benchmarks.md). A larger heap
// goal spends memory, of which the API holds little, to collect less
// often; the memory limit bounds that heap, collecting more often as it
// nears the limit rather than growing past it. The Go runtime's own
// variables still win: GOGC (a percentage, or off) and GOMEMLIMIT (bytes
// with a unit, such as 1GiB) in the environment replace either default.
const (
	defaultGCPercent   = 400
	defaultMemoryLimit = 512 << 20 // bytes
)

// TuneGC applies the defaults above that getenv does not override; a
// process calls it first thing.
func TuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(defaultGCPercent)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
}
