package domain

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// twoEventForm rewrites history into the form recorded before a spend was
// one event: each charge a ListingRequested or VeroCheckPerformed carries
// becomes its own CreditsSpent, recorded just before it at the same time.
func twoEventForm(history []Recorded) []Recorded {
	var out []Recorded
	add := func(r Recorded, e Event) {
		r.Version, r.Event = int64(len(out)+1), e
		out = append(out, r)
	}
	for _, r := range history {
		switch e := r.Event.(type) {
		case ListingRequested:
			if e.Spent != nil {
				add(r, *e.Spent)
				e.Spent = nil
			}
			add(r, e)
		case VeroCheckPerformed:
			if e.Spent != nil {
				add(r, *e.Spent)
				e.Spent = nil
			}
			add(r, e)
		default:
			add(r, r.Event)
		}
	}
	return out
}

// TestOneEventSpendFoldsAsTwoEvents runs random programs of commands and
// checks that the history they record (one event per listing and VeRO
// spend) and the same history in the two-event form the log holds from
// before fold to the same account: balance, draws per grant, spend-limit
// counters, auto-recharge state and key usage, and the same CreditDelta and
// SpendOf totals.
func TestOneEventSpendFoldsAsTwoEvents(t *testing.T) {
	rng := rand.New(rand.NewPCG(36, 1))
	carried := 0
	for run := range 200 {
		program := make([]byte, 400)
		for i := range program {
			program[i] = byte(rng.IntN(256))
		}
		d := newDriver(t)
		d.run(program)
		one, two := d.history, twoEventForm(d.history)
		for _, r := range one {
			if l, ok := r.Event.(ListingRequested); ok && l.Spent != nil {
				carried++
			}
		}
		a1, err := Rehydrate(testAccountID, one)
		if err != nil {
			t.Fatal(err)
		}
		a2, err := Rehydrate(testAccountID, two)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a1.s, a2.s) {
			t.Fatalf("run %d: the one-event history folds to\n%+v\nthe two-event one to\n%+v", run, a1.s, a2.s)
		}
		if !reflect.DeepEqual(a1.SpendLimits(d.now), a2.SpendLimits(d.now)) {
			t.Fatalf("run %d: spend limits %+v and %+v", run, a1.SpendLimits(d.now), a2.SpendLimits(d.now))
		}
		var delta1, delta2, spent1, spent2 int64
		for _, r := range one {
			delta1 += CreditDelta(r.Event)
			if s, ok := SpendOf(r.Event); ok {
				spent1 += s.Amount
			}
		}
		for _, r := range two {
			delta2 += CreditDelta(r.Event)
			if s, ok := SpendOf(r.Event); ok {
				spent2 += s.Amount
			}
		}
		if delta1 != delta2 || spent1 != spent2 {
			t.Fatalf("run %d: CreditDelta %d and %d, spent %d and %d", run, delta1, delta2, spent1, spent2)
		}
	}
	if carried == 0 {
		t.Fatal("no program recorded a listing spend")
	}
}

// TestSpendOf checks the one statement of what an event charges in both forms.
func TestSpendOf(t *testing.T) {
	charge := spent(OperationListing, "l1", Draw{"pack-a", 1})
	for _, c := range []struct {
		e    Event
		want bool
	}{
		{charge, true},
		{ListingRequested{ListingID: "l1", Spent: &charge}, true},
		{ListingRequested{ListingID: "l1"}, false},
		{VeroCheckPerformed{CheckID: "c1", Spent: &charge}, true},
		{VeroCheckPerformed{CheckID: "c1"}, false},
		{CreditsDebited{Amount: 1}, false},
	} {
		got, ok := SpendOf(c.e)
		if ok != c.want || (ok && !reflect.DeepEqual(got, charge)) {
			t.Errorf("SpendOf(%T %+v) = %+v, %v", c.e, c.e, got, ok)
		}
		if want := map[bool]int64{true: -1}[c.want]; c.want && CreditDelta(c.e) != want {
			t.Errorf("CreditDelta(%T) = %d, want %d", c.e, CreditDelta(c.e), want)
		}
	}
}
