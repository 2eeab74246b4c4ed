package webhooks

import (
	"slices"
	"testing"

	"github.com/a2e-automation/app/domain"
)

// TestDispatchedTypes: the dispatcher reads only dispatchedTypes, which is
// made from the carriers Of uses, so each must be a type the domain
// defines and stores under that name, and a ledger event of each carried
// type must come out as a webhook (PaymentRecorded only when paid), else
// the dispatcher would read what it never sends.
func TestDispatchedTypes(t *testing.T) {
	known := domain.EventTypes()
	if len(dispatchedTypes) != len(carriers)+1 || !slices.Contains(dispatchedTypes, domain.WebhookEndpointAdded{}.EventType()) {
		t.Fatalf("dispatchedTypes = %v: the %d carried types and WebhookEndpointAdded, which starts an endpoint's subscription", dispatchedTypes, len(carriers))
	}
	for _, typ := range dispatchedTypes {
		if !slices.Contains(known, typ) {
			t.Errorf("dispatchedTypes names %q, which the domain does not define", typ)
			continue
		}
		if _, carried := carriers[typ]; !carried {
			continue
		}
		ev, err := domain.DecodeEvent(typ, 1, []byte(`{"status":"`+domain.PaymentPaid+`"}`))
		if err != nil {
			t.Fatalf("decode a %s: %v", typ, err)
		}
		hook, data, ok := Of("acc", ev)
		if !ok || hook == "" || data["accountId"] != "acc" {
			t.Errorf("Of(%s) = %q, %v, %v: a carried type makes a webhook with the account's id", typ, hook, data, ok)
		}
	}
	unpaid, err := domain.DecodeEvent(domain.PaymentRecorded{}.EventType(), 1, []byte(`{"status":"failed"}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := Of("acc", unpaid); ok {
		t.Error("a payment that is not paid made a webhook")
	}
	spend, err := domain.DecodeEvent(domain.ListingRequested{}.EventType(), 1, []byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := Of("acc", spend); ok {
		t.Error("a spend made a webhook")
	}
}
