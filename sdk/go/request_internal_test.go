package a2e

import (
	"encoding/json"
	"net/http"
	"os"
	"testing"
	"time"
)

func TestRetryable(t *testing.T) {
	get := request{method: http.MethodGet}
	keyed := request{method: http.MethodPost, idempotencyKey: "k"}
	unkeyed := request{method: http.MethodPost}
	for _, c := range []struct {
		status              int
		get, keyed, unkeyed bool
	}{
		{0, true, true, true},
		{429, true, true, true},
		{503, true, true, true},
		{500, true, true, false},
		{502, true, true, false},
		{504, true, true, false},
		{501, false, false, false},
		{400, false, false, false},
		{402, false, false, false},
	} {
		e := &Error{Status: c.status}
		if retryable(get, e) != c.get || retryable(keyed, e) != c.keyed || retryable(unkeyed, e) != c.unkeyed {
			t.Errorf("%d: retryable get/keyed/unkeyed = %v/%v/%v, want %v/%v/%v", c.status,
				retryable(get, e), retryable(keyed, e), retryable(unkeyed, e), c.get, c.keyed, c.unkeyed)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	if d := retryAfter("7"); d != 7*time.Second {
		t.Errorf("7 = %v", d)
	}
	if d := retryAfter(time.Now().Add(10 * time.Second).UTC().Format(http.TimeFormat)); d < 8*time.Second || d > 10*time.Second {
		t.Errorf("a date 10 s ahead = %v", d)
	}
	for _, h := range []string{"", "soon", "-3", time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat)} {
		if d := retryAfter(h); d != 0 {
			t.Errorf("%q = %v, want 0", h, d)
		}
	}
}

func TestHugeRetryAfterIsClampedNotOverflowed(t *testing.T) {
	for _, h := range []string{"9223372037", "99999999999", "9223372036854775807", "99999999999999999999999"} {
		if d := retryAfter(h); d < maxRetryAfter {
			t.Errorf("%q = %v, want a long wait (clamped), not an overflow", h, d)
		}
	}
	if d := retryAfter("0"); d != 0 {
		t.Errorf(`"0" = %v, want 0 (as absent)`, d)
	}
}

func TestNewIdempotencyKeysDiffer(t *testing.T) {
	if a, b := newIdempotencyKey(), newIdempotencyKey(); a == b || len(a) != 36 {
		t.Errorf("keys %q and %q", a, b)
	}
}

// TestRetryAfterVectors reads the Retry-After vectors every SDK shares.
func TestRetryAfterVectors(t *testing.T) {
	b, err := os.ReadFile("../conformance/retry-after.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Vectors []struct {
			Header  string   `json:"header"`
			Seconds *float64 `json:"seconds"`
		} `json:"vectors"`
	}
	if err := json.Unmarshal(b, &file); err != nil || len(file.Vectors) == 0 {
		t.Fatalf("retry-after.json: %v", err)
	}
	for _, v := range file.Vectors {
		want := time.Duration(0)
		if v.Seconds != nil {
			want = time.Duration(*v.Seconds * float64(time.Second))
		}
		if got := retryAfter(v.Header); got != want {
			t.Errorf("Retry-After %q = %v, want %v", v.Header, got, want)
		}
	}
}
