// Command webhookvectors writes sdk/conformance/webhook-vectors.json: the
// cases every SDK's verifyWebhook is tested with (sdk/README.md, "Webhooks").
// Each vector is signed here, independently of the SDKs, as the server signs a
// delivery: A2E-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">,
// keyed with the endpoint's whole secret string ("whsec_…") as UTF-8 bytes.
//
//	go run ./sdk/conformance/webhookvectors            # rewrites the file
//	go test ./sdk/conformance/webhookvectors           # fails when the file is not current
package main

//go:generate go run . -o ../webhook-vectors.json

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// now is the current time of every vector (2026-11-27T06:00:00Z), so the
// timestamps' age is fixed.
const now = 1795759200

const (
	secret    = "whsec_9Xb2kQe7LmP4rT1vZs8NwYc3HjD6fGaU"
	oldSecret = "whsec_Ot5pR0aWq2EmK7xLc9VbN4yHs1JdF3gT"
	eventID   = "5f0c2b1e-8d3a-4c6f-9b2e-7a1d4e8f3c90"
)

// File is webhook-vectors.json.
type File struct {
	About   string   `json:"about"`
	Vectors []Vector `json:"vectors"`
}

// Vector is one call of verifyWebhook(payload, header, secret, tolerance) at
// Now (Unix seconds) and what it must give: Event, or Error (one of
// "signature_mismatch", "timestamp_outside_tolerance", "malformed_header",
// "malformed_payload").
type Vector struct {
	Name      string `json:"name"`
	Payload   string `json:"payload"`
	Header    string `json:"header"`
	Secret    string `json:"secret"`
	Tolerance int    `json:"tolerance"`
	Now       int64  `json:"now"`
	Event     *Event `json:"event,omitempty"`
	Error     string `json:"error,omitempty"`
}

// Event is the parsed body a valid vector gives.
type Event struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	CreatedAt string          `json:"createdAt"`
	Data      json.RawMessage `json:"data"`
}

const about = "verifyWebhook(payload, header, secret, tolerance) of every SDK (sdk/README.md, 'Webhooks'), at the vector's now (Unix seconds): " +
	"the event {id, type, createdAt, data} it returns, or the kind of error it raises: signature_mismatch, timestamp_outside_tolerance, " +
	"malformed_header, malformed_payload. The signature is checked before the timestamp. payload is the body as UTF-8. " +
	"Written by sdk/conformance/webhookvectors (go generate); each SDK's unit tests read this file."

// sign is one v1 value: hex HMAC-SHA256 of "<t>.<payload>" keyed with the
// secret's UTF-8 bytes.
func sign(key string, t int64, payload string) string {
	mac := hmac.New(sha256.New, []byte(key))
	mac.Write([]byte(strconv.FormatInt(t, 10) + "." + payload))
	return hex.EncodeToString(mac.Sum(nil))
}

func header(t int64, sigs ...string) string {
	parts := []string{"t=" + strconv.FormatInt(t, 10)}
	for _, s := range sigs {
		parts = append(parts, "v1="+s)
	}
	return strings.Join(parts, ",")
}

func body(id, typ, createdAt, data string) (string, *Event) {
	p := `{"id":"` + id + `","type":"` + typ + `","createdAt":"` + createdAt + `","data":` + data + `}`
	return p, &Event{ID: id, Type: typ, CreatedAt: createdAt, Data: json.RawMessage(data)}
}

// vectors are the cases, in the file's order.
func vectors() []Vector {
	granted, grantedEvent := body(eventID, "credits.granted", "2026-11-27T05:59:58.123456Z", `{"credits":500,"reason":"purchase","balance":1250}`)
	refunded, refundedEvent := body("0e9d8c7b-6a5f-4e3d-8c2b-1a0f9e8d7c6b", "payment.refunded", "2026-11-27T05:58:00Z",
		`{"amount":1900,"currency":"eur","note":"Rückerstattung für “Café” ✓"}`)
	t := int64(now - 2)
	valid := sign(secret, t, granted)
	v := func(name, payload, hdr, key string, tolerance int, ev *Event, kind string) Vector {
		return Vector{Name: name, Payload: payload, Header: hdr, Secret: key, Tolerance: tolerance, Now: now, Event: ev, Error: kind}
	}
	tampered := strings.Replace(granted, `"credits":500`, `"credits":5000`, 1)
	notJSON := "credits granted"
	noType := `{"id":"` + eventID + `","createdAt":"2026-11-27T05:59:58Z","data":{}}`
	badTime := `{"id":"` + eventID + `","type":"credits.granted","createdAt":"yesterday","data":{}}`
	dataNotObject := `{"id":"` + eventID + `","type":"credits.granted","createdAt":"2026-11-27T05:59:58Z","data":[1,2]}`
	return []Vector{
		v("valid", granted, header(t, valid), secret, 300, grantedEvent, ""),
		v("valid, non-ASCII body (UTF-8 bytes are signed)", refunded, header(t, sign(secret, t, refunded)), secret, 300, refundedEvent, ""),
		v("two v1 during a secret roll, the second one matches", granted, header(t, sign(oldSecret, t, granted), valid), secret, 300, grantedEvent, ""),
		v("two v1 during a secret roll, the first one matches", granted, header(t, valid, sign(oldSecret, t, granted)), secret, 300, grantedEvent, ""),
		v("verified with the old secret during a roll", granted, header(t, valid, sign(oldSecret, t, granted)), oldSecret, 300, grantedEvent, ""),
		v("unknown schemes are ignored", granted, "t="+strconv.FormatInt(t, 10)+",v0=abc,v1="+valid+",v2=def", secret, 300, grantedEvent, ""),
		v("spaces around the parts are ignored", granted, " t="+strconv.FormatInt(t, 10)+" , v1="+valid+" ", secret, 300, grantedEvent, ""),
		v("upper-case hex", granted, header(t, strings.ToUpper(valid)), secret, 300, grantedEvent, ""),
		v("exactly tolerance seconds old", granted, header(now-300, sign(secret, now-300, granted)), secret, 300, grantedEvent, ""),
		v("exactly tolerance seconds ahead", granted, header(now+300, sign(secret, now+300, granted)), secret, 300, grantedEvent, ""),
		v("a larger tolerance", granted, header(now-3600, sign(secret, now-3600, granted)), secret, 3600, grantedEvent, ""),
		v("wrong secret", granted, header(t, sign("whsec_someone-elses", t, granted)), secret, 300, nil, "signature_mismatch"),
		v("two v1, neither matches", granted, header(t, sign(oldSecret, t, granted), sign("whsec_x", t, granted)), secret, 300, nil, "signature_mismatch"),
		v("tampered body", tampered, header(t, valid), secret, 300, nil, "signature_mismatch"),
		v("body with a trailing newline", granted+"\n", header(t, valid), secret, 300, nil, "signature_mismatch"),
		v("timestamp changed after signing", granted, header(t+1, valid), secret, 300, nil, "signature_mismatch"),
		v("v1 of the right length but another HMAC", granted, header(t, strings.Repeat("0", 64)), secret, 300, nil, "signature_mismatch"),
		v("too old", granted, header(now-301, sign(secret, now-301, granted)), secret, 300, nil, "timestamp_outside_tolerance"),
		v("too new", granted, header(now+301, sign(secret, now+301, granted)), secret, 300, nil, "timestamp_outside_tolerance"),
		v("too old for a smaller tolerance", granted, header(now-61, sign(secret, now-61, granted)), secret, 60, nil, "timestamp_outside_tolerance"),
		v("too old and wrongly signed: the signature is checked first", granted, header(now-86400, sign("whsec_x", now-86400, granted)), secret, 300, nil, "signature_mismatch"),
		v("empty header", granted, "", secret, 300, nil, "malformed_header"),
		v("not a signature header", granted, "sha256="+valid, secret, 300, nil, "malformed_header"),
		v("missing t", granted, "v1="+valid, secret, 300, nil, "malformed_header"),
		v("missing v1", granted, "t="+strconv.FormatInt(t, 10), secret, 300, nil, "malformed_header"),
		v("only other schemes", granted, "t="+strconv.FormatInt(t, 10)+",v0="+valid, secret, 300, nil, "malformed_header"),
		v("t not a number", granted, "t=yesterday,v1="+valid, secret, 300, nil, "malformed_header"),
		v("t negative", granted, "t=-"+strconv.FormatInt(t, 10)+",v1="+valid, secret, 300, nil, "malformed_header"),
		v("t in milliseconds is not seconds", granted, header(t*1000, sign(secret, t*1000, granted)), secret, 300, nil, "timestamp_outside_tolerance"),
		v("two t", granted, header(t, valid)+",t="+strconv.FormatInt(t, 10), secret, 300, nil, "malformed_header"),
		v("a part without =", granted, header(t, valid)+",v1", secret, 300, nil, "malformed_header"),
		v("v1 not hex", granted, header(t, strings.Repeat("z", 64)), secret, 300, nil, "malformed_header"),
		v("v1 too short", granted, header(t, valid[:63]), secret, 300, nil, "malformed_header"),
		v("v1 empty", granted, header(t, ""), secret, 300, nil, "malformed_header"),
		v("signed body that is not JSON", notJSON, header(t, sign(secret, t, notJSON)), secret, 300, nil, "malformed_payload"),
		v("signed body without a type", noType, header(t, sign(secret, t, noType)), secret, 300, nil, "malformed_payload"),
		v("signed body whose createdAt is not RFC 3339", badTime, header(t, sign(secret, t, badTime)), secret, 300, nil, "malformed_payload"),
		v("signed body whose data is not an object", dataNotObject, header(t, sign(secret, t, dataNotObject)), secret, 300, nil, "malformed_payload"),
	}
}

// render is the file's bytes: indented JSON, one vector a few lines, without
// escaping of <, > and &.
func render() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(File{About: about, Vectors: vectors()}); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func main() {
	out := flag.String("o", "sdk/conformance/webhook-vectors.json", "the file to write")
	flag.Parse()
	b, err := render()
	if err == nil {
		err = os.WriteFile(*out, b, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "webhookvectors:", err)
		os.Exit(1)
	}
}
