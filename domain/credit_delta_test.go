package domain

import (
	"fmt"
	"testing"
)

// Every event type the codec knows has a case in CreditDelta, which panics
// on a type without one.
func TestCreditDeltaHasACaseForEveryEventType(t *testing.T) {
	for _, e := range codecEvents(t) {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("CreditDelta(%s): %v", e.EventType(), r)
				}
			}()
			CreditDelta(e)
		}()
	}
	defer func() {
		if r := recover(); r == nil || fmt.Sprint(r) == "" {
			t.Fatal("CreditDelta accepted an event type it has no case for")
		}
	}()
	CreditDelta(foreignEvent{})
}

// creditsOnHand is what the account's own fold holds: the remaining credits
// of its grants, expired or not, until their CreditsExpired.
func creditsOnHand(s *state) int64 {
	var n int64
	for _, g := range s.Grants {
		n += g.Remaining
	}
	return n
}
