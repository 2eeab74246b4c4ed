package a2e

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"
)

// DefaultWebhookTolerance is how far a delivery's signed time may be from the
// receiver's clock, either way, when VerifyWebhook is given no tolerance.
const DefaultWebhookTolerance = 300 * time.Second

// WebhookSignatureHeader is the header a webhook delivery is signed in.
const WebhookSignatureHeader = "A2E-Signature"

// The kinds of failure of VerifyWebhook, for errors.Is: every *WebhookError
// matches exactly one of them.
var (
	// ErrWebhookSignature: no v1 value of the header is the HMAC of this
	// body and timestamp with this secret (wrong secret, or a changed body).
	ErrWebhookSignature = errors.New("a2e: webhook signature mismatch")
	// ErrWebhookTimestamp: the signature matches, but its t is further from
	// now than the tolerance (a replayed or long-delayed delivery).
	ErrWebhookTimestamp = errors.New("a2e: webhook timestamp outside the tolerance")
	// ErrWebhookHeader: the A2E-Signature header is not
	// "t=<unix seconds>,v1=<64 hex digits>[,v1=…]".
	ErrWebhookHeader = errors.New("a2e: malformed webhook signature header")
	// ErrWebhookPayload: the signed body is not an event
	// {"id", "type", "createdAt", "data": {…}}.
	ErrWebhookPayload = errors.New("a2e: malformed webhook payload")
)

// WebhookError is every failure of VerifyWebhook to accept a delivery; it
// matches one of ErrWebhookSignature, ErrWebhookTimestamp, ErrWebhookHeader
// and ErrWebhookPayload with errors.Is. It never holds the secret.
type WebhookError struct {
	// Kind is the sentinel the error matches.
	Kind error
	// Message says what is wrong, in English, for people.
	Message string
}

// Error is the kind and what is wrong.
func (e *WebhookError) Error() string { return e.Kind.Error() + ": " + e.Message }

// Is reports whether target is the error's kind.
func (e *WebhookError) Is(target error) bool { return target == e.Kind }

// Event is the body of a webhook delivery.
type Event struct {
	// ID is the event's id: the same on every attempt and resend of it, so a
	// receiver that stores the ids it handled handles each event once.
	ID string `json:"id"`
	// Type is the event's type, such as "credits.granted".
	Type string `json:"type"`
	// CreatedAt is when the event happened in the account's ledger.
	CreatedAt time.Time `json:"createdAt"`
	// Data is the type's fields, a JSON object, to decode into a struct of
	// the type's (see the webhooks guide).
	Data json.RawMessage `json:"data"`
}

// VerifyWebhook checks a webhook delivery and returns its event: payload is
// the request body exactly as received (before any JSON decoding), header the
// value of its A2E-Signature header, secret the endpoint's signing secret
// ("whsec_…"; the HMAC key is the whole string's UTF-8 bytes), tolerance how
// far the signed time may be from now (0 or less: DefaultWebhookTolerance).
//
// The header is "t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">", with
// two v1 values while a rolled secret's old one is still valid: the delivery
// is accepted when any v1 matches (compared in constant time). The signature
// is checked before the time, so a delivery of someone else's is never told
// apart by its age. Errors are *WebhookError; an empty secret is a plain
// error.
func VerifyWebhook(payload []byte, header, secret string, tolerance time.Duration) (Event, error) {
	return verifyWebhook(payload, header, secret, tolerance, time.Now())
}

// maxTimestampDigits bounds t to what every SDK's numbers hold exactly.
const maxTimestampDigits = 15

func verifyWebhook(payload []byte, header, secret string, tolerance time.Duration, now time.Time) (Event, error) {
	if secret == "" {
		return Event{}, errors.New("a2e: VerifyWebhook: empty secret")
	}
	if tolerance <= 0 {
		tolerance = DefaultWebhookTolerance
	}
	t, sigs, err := parseSignatureHeader(header)
	if err != nil {
		return Event{}, err
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(strconv.FormatInt(t, 10)))
	mac.Write([]byte{'.'})
	mac.Write(payload)
	want := mac.Sum(nil)
	matched := false
	for _, sig := range sigs {
		if hmac.Equal(sig, want) {
			matched = true
		}
	}
	if !matched {
		return Event{}, &WebhookError{ErrWebhookSignature, "no v1 signature matches the body and timestamp with this secret"}
	}
	age := now.Unix() - t
	if age < 0 {
		age = -age
	}
	if float64(age) > tolerance.Seconds() {
		return Event{}, &WebhookError{ErrWebhookTimestamp, "t=" + strconv.FormatInt(t, 10) + " is " + strconv.FormatInt(age, 10) + " s from now, over the tolerance of " + tolerance.String()}
	}
	return parseEvent(payload)
}

// parseSignatureHeader is the header's t and its v1 signatures (decoded);
// parts of other schemes are ignored.
func parseSignatureHeader(header string) (int64, [][]byte, error) {
	malformed := func(msg string) (int64, [][]byte, error) {
		return 0, nil, &WebhookError{ErrWebhookHeader, msg}
	}
	var (
		t     int64
		haveT bool
		sigs  [][]byte
	)
	if strings.TrimSpace(header) == "" {
		return malformed("the header is empty")
	}
	for _, part := range strings.Split(header, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return malformed("a part is not key=value")
		}
		switch key {
		case "t":
			if haveT {
				return malformed("t is given twice")
			}
			if value == "" || len(value) > maxTimestampDigits || strings.Trim(value, "0123456789") != "" {
				return malformed("t is not Unix seconds")
			}
			t, _ = strconv.ParseInt(value, 10, 64)
			haveT = true
		case "v1":
			sig, err := hex.DecodeString(value)
			if err != nil || len(sig) != sha256.Size {
				return malformed("a v1 is not 64 hex digits")
			}
			sigs = append(sigs, sig)
		}
	}
	if !haveT {
		return malformed("no t")
	}
	if len(sigs) == 0 {
		return malformed("no v1 signature")
	}
	return t, sigs, nil
}

// parseEvent decodes a verified body.
func parseEvent(payload []byte) (Event, error) {
	var raw struct {
		ID        *string         `json:"id"`
		Type      *string         `json:"type"`
		CreatedAt *string         `json:"createdAt"`
		Data      json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(payload, &raw); err != nil {
		return Event{}, &WebhookError{ErrWebhookPayload, "the body is not a JSON event: " + err.Error()}
	}
	if raw.ID == nil || *raw.ID == "" || raw.Type == nil || *raw.Type == "" || raw.CreatedAt == nil {
		return Event{}, &WebhookError{ErrWebhookPayload, "the body lacks id, type or createdAt"}
	}
	created, err := time.Parse(time.RFC3339Nano, *raw.CreatedAt)
	if err != nil {
		return Event{}, &WebhookError{ErrWebhookPayload, "createdAt is not an RFC 3339 time"}
	}
	if !bytes.HasPrefix(raw.Data, []byte("{")) {
		return Event{}, &WebhookError{ErrWebhookPayload, "data is not a JSON object"}
	}
	return Event{ID: *raw.ID, Type: *raw.Type, CreatedAt: created, Data: raw.Data}, nil
}
