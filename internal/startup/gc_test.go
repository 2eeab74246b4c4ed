package startup

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestTuneGC: bin/api's and bin/projector's collector defaults apply only where the Go
// runtime's own variables are not set.
func TestTuneGC(t *testing.T) {
	prevPercent := debug.SetGCPercent(100)
	prevLimit := debug.SetMemoryLimit(math.MaxInt64)
	defer func() {
		debug.SetGCPercent(prevPercent)
		debug.SetMemoryLimit(prevLimit)
	}()

	TuneGC(func(string) string { return "" })
	if got := debug.SetGCPercent(100); got != defaultGCPercent {
		t.Errorf("GOGC unset: the collector's percentage is %d, want %d", got, defaultGCPercent)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != defaultMemoryLimit {
		t.Errorf("GOMEMLIMIT unset: the memory limit is %d, want %d", got, defaultMemoryLimit)
	}

	set := map[string]string{"GOGC": "150", "GOMEMLIMIT": "1GiB"}
	TuneGC(func(k string) string { return set[k] })
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC set: TuneGC changed the percentage to %d", got)
	}
	if got := debug.SetMemoryLimit(math.MaxInt64); got != math.MaxInt64 {
		t.Errorf("GOMEMLIMIT set: TuneGC changed the limit to %d", got)
	}
}
