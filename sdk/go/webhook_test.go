package a2e_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	a2e "github.com/a2e-automation/app/sdk/go"
)

// webhookVector is one case of sdk/conformance/webhook-vectors.json.
type webhookVector struct {
	Name      string `json:"name"`
	Payload   string `json:"payload"`
	Header    string `json:"header"`
	Secret    string `json:"secret"`
	Tolerance int    `json:"tolerance"`
	Now       int64  `json:"now"`
	Event     *struct {
		ID        string          `json:"id"`
		Type      string          `json:"type"`
		CreatedAt string          `json:"createdAt"`
		Data      json.RawMessage `json:"data"`
	} `json:"event"`
	Error string `json:"error"`
}

var webhookKinds = map[string]error{
	"signature_mismatch":          a2e.ErrWebhookSignature,
	"timestamp_outside_tolerance": a2e.ErrWebhookTimestamp,
	"malformed_header":            a2e.ErrWebhookHeader,
	"malformed_payload":           a2e.ErrWebhookPayload,
}

// TestVerifyWebhookVectors runs the vectors every SDK shares.
func TestVerifyWebhookVectors(t *testing.T) {
	b, err := os.ReadFile("../conformance/webhook-vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Vectors []webhookVector `json:"vectors"`
	}
	if err := json.Unmarshal(b, &file); err != nil || len(file.Vectors) == 0 {
		t.Fatalf("webhook-vectors.json: %v", err)
	}
	for _, v := range file.Vectors {
		t.Run(v.Name, func(t *testing.T) {
			ev, err := a2e.VerifyWebhookAt([]byte(v.Payload), v.Header, v.Secret, time.Duration(v.Tolerance)*time.Second, time.Unix(v.Now, 0))
			if v.Event == nil {
				var werr *a2e.WebhookError
				if !errors.Is(err, webhookKinds[v.Error]) || !errors.As(err, &werr) {
					t.Fatalf("error %v, want %s", err, v.Error)
				}
				for kind, sentinel := range webhookKinds {
					if kind != v.Error && errors.Is(err, sentinel) {
						t.Errorf("error %v also matches %s", err, kind)
					}
				}
				if strings.Contains(err.Error(), v.Secret) {
					t.Errorf("the error shows the secret: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("error %v, want the event", err)
			}
			want, _ := time.Parse(time.RFC3339Nano, v.Event.CreatedAt)
			if ev.ID != v.Event.ID || ev.Type != v.Event.Type || !ev.CreatedAt.Equal(want) {
				t.Errorf("event %+v, want %+v", ev, v.Event)
			}
			var got, wantData any
			json.Unmarshal(ev.Data, &got)
			json.Unmarshal(v.Event.Data, &wantData)
			if fmt.Sprint(got) != fmt.Sprint(wantData) {
				t.Errorf("data %s, want %s", ev.Data, v.Event.Data)
			}
		})
	}
}

// signWebhook signs body at time ts as the server does.
func signWebhook(secret string, ts int64, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "%d.%s", ts, body)
	return "t=" + strconv.FormatInt(ts, 10) + ",v1=" + hex.EncodeToString(mac.Sum(nil))
}

// TestVerifyWebhookAgainstTheClock: VerifyWebhook uses the current time, and
// a zero tolerance means DefaultWebhookTolerance.
func TestVerifyWebhookAgainstTheClock(t *testing.T) {
	const secret = "whsec_clock"
	body := []byte(`{"id":"e1","type":"balance.low","createdAt":"2026-01-02T03:04:05Z","data":{"creditsAvailable":3}}`)
	now := time.Now().Unix()
	if _, err := a2e.VerifyWebhook(body, signWebhook(secret, now-10, body), secret, 0); err != nil {
		t.Errorf("now: %v", err)
	}
	if _, err := a2e.VerifyWebhook(body, signWebhook(secret, now-299, body), secret, 0); err != nil {
		t.Errorf("299 s old, default tolerance: %v", err)
	}
	if _, err := a2e.VerifyWebhook(body, signWebhook(secret, now-400, body), secret, 0); !errors.Is(err, a2e.ErrWebhookTimestamp) {
		t.Errorf("400 s old, default tolerance: %v", err)
	}
	if _, err := a2e.VerifyWebhook(body, signWebhook(secret, now-400, body), secret, 10*time.Minute); err != nil {
		t.Errorf("400 s old, 10 min tolerance: %v", err)
	}
	if _, err := a2e.VerifyWebhook(body, signWebhook(secret, now, body), "", 0); err == nil || errors.Is(err, a2e.ErrWebhookSignature) {
		t.Errorf("empty secret: %v", err)
	}
}

// TestVerifyWebhookInAHandler: a receiver over real HTTP verifies the raw
// body it read, and refuses a changed one.
func TestVerifyWebhookInAHandler(t *testing.T) {
	const secret = "whsec_handler"
	var got []a2e.Event
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		ev, err := a2e.VerifyWebhook(body, r.Header.Get(a2e.WebhookSignatureHeader), secret, 0)
		if err != nil {
			http.Error(w, "bad signature", http.StatusBadRequest)
			return
		}
		got = append(got, ev)
	}))
	defer srv.Close()
	body := []byte(`{"id":"e2","type":"credits.granted","createdAt":"2026-01-02T03:04:05.5Z","data":{"credits":100}}`)
	post := func(b []byte, sig string) int {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, bytes.NewReader(b))
		req.Header.Set("A2E-Signature", sig)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	sig := signWebhook(secret, time.Now().Unix(), body)
	if s := post(body, sig); s != http.StatusOK {
		t.Fatalf("signed delivery: %d", s)
	}
	if s := post(bytes.Replace(body, []byte("100"), []byte("900"), 1), sig); s != http.StatusBadRequest {
		t.Fatalf("changed delivery: %d", s)
	}
	if len(got) != 1 || got[0].ID != "e2" || got[0].Type != "credits.granted" || string(got[0].Data) != `{"credits":100}` ||
		!got[0].CreatedAt.Equal(time.Date(2026, 1, 2, 3, 4, 5, 5e8, time.UTC)) {
		t.Errorf("events %+v", got)
	}
}
