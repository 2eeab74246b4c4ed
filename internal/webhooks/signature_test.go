package webhooks

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"
)

// The test vector the SDKs' verifyWebhook tests share: secret, timestamp and
// body, and the header Sign gives for them (computed independently below).
func TestSignMatchesTheSharedVector(t *testing.T) {
	body := []byte(`{"id":"evt_1","type":"credits.granted","createdAt":"2026-11-27T05:00:00Z","data":{"amount":500}}`)
	at := time.Unix(1795755600, 0)
	// Computed with Python's hmac module, outside this code.
	const want = "t=1795755600,v1=2485e9dc404a22dc8ef8ba74946a33db681de54842324938e83f21a9a4dabf39"
	if got := Sign([]string{"whsec_test"}, at, body); got != want {
		t.Fatalf("Sign = %s, want %s", got, want)
	}
	mac := hmac.New(sha256.New, []byte("whsec_test"))
	mac.Write([]byte("1795755600." + string(body)))
	if got := Sign([]string{"whsec_test"}, at, body); got != "t=1795755600,v1="+hex.EncodeToString(mac.Sum(nil)) {
		t.Fatalf("Sign = %s", got)
	}
	two := Sign([]string{"whsec_new", "whsec_test"}, at, body)
	old := Sign([]string{"whsec_test"}, at, body)
	if len(two) != len(old)+len(",v1=")+64 || two[len(two)-64:] != old[len(old)-64:] {
		t.Fatalf("two secrets: %s", two)
	}
}
