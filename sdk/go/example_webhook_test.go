package a2e_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	a2e "github.com/a2e-automation/app/sdk/go"
)

// Verify a webhook delivery: the raw body, its A2E-Signature header and the
// endpoint's secret give the event, or an error to answer with 400.
func ExampleVerifyWebhook() {
	secret := "whsec_example"
	body := []byte(`{"id":"5f0c2b1e-8d3a-4c6f-9b2e-7a1d4e8f3c90","type":"credits.granted","createdAt":"2026-11-27T05:59:58Z","data":{"credits":500}}`)
	// What the server sends, as a receiver would get it in r.Header.Get(a2e.WebhookSignatureHeader).
	t := strconv.FormatInt(time.Now().Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(t + "." + string(body)))
	header := "t=" + t + ",v1=" + hex.EncodeToString(mac.Sum(nil))

	ev, err := a2e.VerifyWebhook(body, header, secret, 0)
	if err != nil {
		fmt.Println("refused:", err)
		return
	}
	var data struct {
		Credits int64 `json:"credits"`
	}
	if err := json.Unmarshal(ev.Data, &data); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ev.Type, data.Credits)

	_, err = a2e.VerifyWebhook(body, header, "whsec_someone-elses", 0)
	fmt.Println(errors.Is(err, a2e.ErrWebhookSignature))
	// Output:
	// credits.granted 500
	// true
}
