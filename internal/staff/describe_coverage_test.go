package staff

import (
	"testing"

	"github.com/a2e-automation/app/domain"
)

// Every event type the codec knows has words of its own in the history:
// Describe's fallback, the bare type name, is for an event it has no case
// for, and a new type must not reach staff that way.
func TestDescribeHasACaseForEveryEventType(t *testing.T) {
	types := domain.EventTypes()
	if len(types) == 0 {
		t.Fatal("the codec knows no event type")
	}
	for _, typ := range types {
		ev, err := domain.DecodeEvent(typ, 1, []byte(`{}`))
		if err != nil {
			t.Fatalf("decode an empty %s: %v", typ, err)
		}
		if summary, _ := Describe(ev); summary == ev.EventType() {
			t.Errorf("Describe has no case for %s: the history shows %q", typ, summary)
		}
	}
}
