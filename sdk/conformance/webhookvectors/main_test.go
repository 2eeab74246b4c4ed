package main

import (
	"bytes"
	"os"
	"testing"
)

// TestFileIsCurrent: sdk/conformance/webhook-vectors.json is what this
// program writes (run go generate ./sdk/conformance/webhookvectors after a change).
func TestFileIsCurrent(t *testing.T) {
	want, err := render()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../webhook-vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("sdk/conformance/webhook-vectors.json is not current: run go generate ./sdk/conformance/webhookvectors")
	}
}

// TestVectorsAreDistinctAndDecided: every vector has a unique name and
// exactly one outcome, and each error kind is exercised.
func TestVectorsAreDistinctAndDecided(t *testing.T) {
	names := map[string]bool{}
	kinds := map[string]int{}
	for _, v := range vectors() {
		if names[v.Name] {
			t.Errorf("vector %q twice", v.Name)
		}
		names[v.Name] = true
		if (v.Event == nil) == (v.Error == "") {
			t.Errorf("vector %q: want exactly one of event and error", v.Name)
		}
		kinds[v.Error]++
	}
	for _, k := range []string{"", "signature_mismatch", "timestamp_outside_tolerance", "malformed_header", "malformed_payload"} {
		if kinds[k] == 0 {
			t.Errorf("no vector of outcome %q", k)
		}
	}
}
