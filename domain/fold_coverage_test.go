package domain

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"
)

// codecEvents returns a value of every event type the codec's registry
// knows (EventTypes), decoded from empty data: the list the tests of every
// fold walk, in this package and in projections and internal/staff.
func codecEvents(t *testing.T) []Event {
	t.Helper()
	var evs []Event
	for _, typ := range EventTypes() {
		e, err := DecodeEvent(typ, currentSchemaVersion, []byte(`{}`))
		if err != nil {
			t.Fatalf("decode an empty %s: %v", typ, err)
		}
		evs = append(evs, e)
	}
	return evs
}

// The codec's registry is the list of event types: every type this package
// declares is in it once, under its own name.
func TestCodecRegistryHoldsEveryDeclaredEventType(t *testing.T) {
	var registered []string
	for _, e := range codecEvents(t) {
		if name := reflect.TypeOf(e).Name(); name != e.EventType() {
			t.Errorf("the codec decodes %q as %s", e.EventType(), name)
		}
		registered = append(registered, e.EventType())
	}
	declared := eventTypesDeclared(t)
	slices.Sort(declared)
	if !slices.Equal(registered, declared) {
		t.Fatalf("the codec's registry %v differs from the event types declared %v", registered, declared)
	}
}

// Every event type the codec knows has a case in the account's fold
// (state.apply), which panics on a type without one.
func TestStateAppliesEveryCodecEventType(t *testing.T) {
	for _, e := range codecEvents(t) {
		t.Run(e.EventType(), func(t *testing.T) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("state.apply(%s): %v", e.EventType(), r)
				}
			}()
			var s state
			s.apply(e, time.Date(2025, time.March, 1, 0, 0, 0, 0, time.UTC))
		})
	}
	// The walk would see a missing case: apply's default panics.
	defer func() {
		if r := recover(); r == nil || fmt.Sprint(r) == "" {
			t.Fatal("state.apply accepted an event type it has no case for")
		}
	}()
	var s state
	s.apply(foreignEvent{}, time.Now())
}
