package domain

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// t0 is when every test account registers.
var t0 = time.Date(2025, time.March, 1, 12, 0, 0, 0, time.UTC)

const testAccountID = "acc-1"

// day returns t0 plus n days.
func day(n int) time.Time { return t0.AddDate(0, 0, n) }

func ptr[T any](v T) *T { return &v }

func testKey(n int) APIKeyMaterial {
	return APIKeyMaterial{
		KeyID:     fmt.Sprintf("key-%d", n),
		Prefix:    fmt.Sprintf("a2e_%d", n),
		Hash:      fmt.Sprintf("hash-%d", n),
		Encrypted: fmt.Sprintf("encrypted-%d", n),
	}
}

// opening returns the events that open the test account's stream.
func opening() []Event {
	k := testKey(1)
	return []Event{
		AccountRegistered{AccountID: testAccountID, Email: "seller@example.com"},
		APIKeyIssued{KeyID: k.KeyID, Prefix: k.Prefix, Hash: k.Hash, Encrypted: k.Encrypted},
	}
}

// stream numbers events 1..n and stamps them one minute apart from t0.
func stream(events ...Event) []Recorded {
	history := make([]Recorded, len(events))
	for i, e := range events {
		history[i] = Recorded{Version: int64(i + 1), At: t0.Add(time.Duration(i) * time.Minute), Event: e}
	}
	return history
}

// given returns the test account after its opening events and events.
func given(t *testing.T, events ...Event) *Account {
	t.Helper()
	a, err := Rehydrate(testAccountID, stream(append(opening(), events...)...))
	if err != nil {
		t.Fatalf("given: %v", err)
	}
	return a
}

// scenario is one "given these events, when this command, then these events
// or this error" case.
type scenario struct {
	name    string
	given   []Event
	when    func(a *Account) error
	then    []Event // recorded by when; nil for none
	wantErr Code
	wantMsg string // checked when not empty
}

func run(t *testing.T, scenarios []scenario) {
	t.Helper()
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			a := given(t, sc.given...)
			err := sc.when(a)
			switch {
			case sc.wantErr == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case ErrorCode(err) != sc.wantErr:
				t.Fatalf("error = %v, want code %q", err, sc.wantErr)
			case sc.wantMsg != "" && ErrorMessage(err) != sc.wantMsg:
				t.Fatalf("message = %q, want %q", ErrorMessage(err), sc.wantMsg)
			}
			thenEvents(t, a, sc.then...)
			checkCreditDelta(t, a, append(append(opening(), sc.given...), a.Changes()...))
		})
	}
}

// checkCreditDelta checks the domain's one statement of how events move the
// credits (CreditDelta, which the projections and the staff history read)
// against the account's own fold after events.
func checkCreditDelta(t testing.TB, a *Account, events []Event) {
	t.Helper()
	var delta int64
	for _, e := range events {
		delta += CreditDelta(e)
	}
	if held := creditsOnHand(&a.s); delta != held {
		t.Fatalf("the events' CreditDelta add up to %d, the account's fold holds %d", delta, held)
	}
}

// thenEvents checks the events a recorded since it was loaded.
func thenEvents(t *testing.T, a *Account, want ...Event) {
	t.Helper()
	if got := a.Changes(); len(got) != len(want) || (len(got) > 0 && !reflect.DeepEqual(got, want)) {
		t.Fatalf("recorded:\n%s\nwant:\n%s", describe(got), describe(want))
	}
}

// describe lists events in their stored form, one a line.
func describe(events []Event) string {
	if len(events) == 0 {
		return "  (none)"
	}
	var b strings.Builder
	for _, e := range events {
		typ, _, data, err := EncodeEvent(e)
		if err != nil {
			fmt.Fprintf(&b, "  %#v\n", e)
			continue
		}
		fmt.Fprintf(&b, "  %s %s\n", typ, data)
	}
	return b.String()
}
