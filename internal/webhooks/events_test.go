package webhooks

import (
	"slices"
	"testing"

	"github.com/a2e-automation/app/domain"
)

// TestDispatchedTypesCoverOf: the dispatcher reads only dispatchedTypes, so
// every event type Of turns into a webhook must be among them (else its
// webhooks would never be sent), and each of them must be a type the
// domain defines. Of is a switch on the type, so its zero value answers
// for the type, except PaymentRecorded, which only a paid one makes a
// webhook.
func TestDispatchedTypesCoverOf(t *testing.T) {
	known := domain.EventTypes()
	for _, typ := range dispatchedTypes {
		if !slices.Contains(known, typ) {
			t.Errorf("dispatchedTypes names %q, which the domain does not define", typ)
		}
	}
	paid, err := domain.DecodeEvent(domain.PaymentRecorded{}.EventType(), 1, []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	p := paid.(domain.PaymentRecorded)
	p.Status = domain.PaymentPaid
	events := []domain.Event{p}
	for _, typ := range known {
		ev, err := domain.DecodeEvent(typ, 1, []byte(`{}`))
		if err != nil {
			t.Fatalf("decode a zero %s: %v", typ, err)
		}
		events = append(events, ev)
	}
	carried := 0
	for _, ev := range events {
		if _, _, ok := Of("acc", ev); !ok {
			continue
		}
		carried++
		if !slices.Contains(dispatchedTypes, ev.EventType()) {
			t.Errorf("Of makes a webhook of %s, which dispatchedTypes leaves out", ev.EventType())
		}
	}
	if carried < len(dispatchedTypes)-1 {
		t.Errorf("Of carried %d of the types, dispatchedTypes names %d besides WebhookEndpointAdded", carried, len(dispatchedTypes)-1)
	}
	if !slices.Contains(dispatchedTypes, domain.WebhookEndpointAdded{}.EventType()) {
		t.Error("dispatchedTypes leaves out WebhookEndpointAdded, which starts an endpoint's subscription")
	}
}
