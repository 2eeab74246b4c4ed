// Package webhooks delivers the ledger's events to the sellers' webhook
// endpoints (issue 35): the dispatcher turns the log into delivery rows
// (dispatch.go), the worker sends them, signed, with retries (deliver.go),
// through a client that refuses non-public addresses in production
// (address.go).
package webhooks

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"time"
)

// SignatureHeader is the header that carries Sign's value.
const SignatureHeader = "A2E-Signature"

// Sign returns the A2E-Signature header value of body sent at t, as Stripe
// signs: "t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">", with one
// v1 per secret, in the order given (the current secret first, then a
// rolled one's predecessor while it is still valid).
func Sign(secrets []string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	var b strings.Builder
	b.WriteString("t=")
	b.WriteString(ts)
	for _, s := range secrets {
		mac := hmac.New(sha256.New, []byte(s))
		mac.Write([]byte(ts))
		mac.Write([]byte{'.'})
		mac.Write(body)
		b.WriteString(",v1=")
		b.WriteString(hex.EncodeToString(mac.Sum(nil)))
	}
	return b.String()
}
