package projections_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/listings"
	"github.com/a2e-automation/app/internal/staff"
)

// TestOneEventSpendsProjectAsTwoEvents: an account's history written as
// today's commands write it (one event per listing and VeRO spend, the
// charge carried by ListingRequested and VeroCheckPerformed) and the same
// history in the two-event form the log holds from before (a CreditsSpent,
// then the operation's event without a charge), each in its own database
// under the same stream and times, fold to the same account and the same
// read tables after the projector; both forms' listings read back alike,
// and the staff history has one line per spend in the new form, with its
// charge.
func TestOneEventSpendsProjectAsTwoEvents(t *testing.T) {
	ctx := context.Background()
	one := newFixture(t)
	id := one.register(t)
	keyHash := "h-" + id // the registered primary key's lookup hash (register)
	one.do(t, id, func(a *domain.Account, now time.Time) error {
		return a.GrantCredits(domain.CreditsGranted{GrantID: "promo", Amount: 2, Source: domain.SourcePromo, ExpiresAt: ptr(now.Add(time.Hour))}, now)
	})
	one.activity(t, id, 0)
	one.do(t, id, func(a *domain.Account, now time.Time) error {
		return a.SetSpendLimits(ptr(int64(50)), ptr(int64(200)), now)
	})
	for i := range 4 { // spends made with the key, as the API makes them
		one.do(t, id, func(a *domain.Account, now time.Time) error {
			if err := a.RequireAPIKey(keyHash, now); err != nil {
				return err
			}
			switch i % 3 {
			case 0:
				return a.RequestListing(fmt.Sprintf("key-l-%d", i), "B000KEY001", "", now)
			case 1:
				return a.PerformVeroCheck(fmt.Sprintf("key-v-%d", i), "Acme", false, now)
			default:
				return a.Spend(domain.OperationAPIRequest, fmt.Sprintf("r-%d", i), now)
			}
		})
	}
	one.activity(t, id, 1)

	recs, err := eventstore.New(one.pool).ReadStream(ctx, domain.StreamID(id), 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	// The same history in the two-event form, in a database of its own.
	two := newFixture(t)
	twoStore := eventstore.New(two.pool)
	var version int64
	carried := 0
	for _, r := range recs {
		events := []eventstore.NewEvent{{Type: r.Type, SchemaVersion: r.SchemaVersion, Data: r.Data}}
		if spent, rest := split(t, r); spent != nil {
			carried++
			events = []eventstore.NewEvent{*spent, *rest}
		}
		if err := pgx.BeginFunc(ctx, two.pool, func(tx pgx.Tx) error {
			_, err := twoStore.Append(ctx, tx, r.StreamID, version, events, r.Metadata, r.RecordedAt)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		version += int64(len(events))
	}
	if carried != 11 { // 6 listings and 2 VeRO checks in the two activities, 2 and 1 with the key
		t.Fatalf("only %d spends carried by their operation's event", carried)
	}

	// The account: one fold, whichever the form.
	twoRecs, err := twoStore.ReadStream(ctx, domain.StreamID(id), 0, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(twoRecs) != len(recs)+carried {
		t.Fatalf("the two-event form has %d events, want %d", len(twoRecs), len(recs)+carried)
	}
	a1, a2 := rehydrate(t, id, recs), rehydrate(t, id, twoRecs)
	now := time.Now()
	s1, _ := a1.Snapshot()
	s2, _ := a2.Snapshot()
	if string(s1) != string(s2) {
		t.Fatalf("the account folds differently:\none event  %s\ntwo events %s", s1, s2)
	}
	if a1.Balance(now) != a2.Balance(now) || !reflect.DeepEqual(a1.Grants(now), a2.Grants(now)) ||
		!reflect.DeepEqual(a1.SpendLimits(now), a2.SpendLimits(now)) || !reflect.DeepEqual(a1.APIKeys(), a2.APIKeys()) ||
		!reflect.DeepEqual(a1.AutoRecharge(now), a2.AutoRecharge(now)) {
		t.Fatal("balance, grants, spend limits, keys or auto-recharge differ between the forms")
	}

	// The read tables after the projector.
	for _, f := range []*fixture{one, two} {
		for {
			n, err := f.projector.ApplyBatch(ctx, 500)
			if err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				break
			}
		}
	}
	d1, d2 := dump(t, one.pool), dump(t, two.pool)
	if !reflect.DeepEqual(d1, d2) {
		t.Fatalf("the read tables differ:\none event  %v\ntwo events %v", d1, d2)
	}
	if len(d1["usage_daily_keys"]) == 0 || !strings.Contains(strings.Join(d1["profiles"], ""), `"credits_used"`) {
		t.Fatalf("the read tables hold no key usage or no profile: %v", d1)
	}

	// Listings read back from both forms alike.
	l1, err := listings.NewLedger(eventstore.New(one.pool)).List(ctx, id, listings.Query{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	l2, err := listings.NewLedger(twoStore).List(ctx, id, listings.Query{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(l1.Listings) != 8 || len(l1.Listings) != len(l2.Listings) {
		t.Fatalf("listings: %d and %d, want 8", len(l1.Listings), len(l2.Listings))
	}
	for i := range l1.Listings {
		x, y := l1.Listings[i], l2.Listings[i]
		if x.ID != y.ID || x.ASIN != y.ASIN || !x.CreatedAt.Equal(y.CreatedAt) {
			t.Fatalf("listing %d: %+v and %+v", i, x, y)
		}
		if got, err := listings.NewLedger(twoStore).Get(ctx, id, x.ID); err != nil || got.ID != x.ID {
			t.Fatalf("Get %s from the two-event form: %+v, %v", x.ID, got, err)
		}
	}

	// The staff history: one line per listing spend in the new form, with its charge.
	var lines, charged int
	var change1, change2 int64
	for _, r := range a1Events(t, recs) {
		summary, change := staff.Describe(r)
		change1 += change
		if l, ok := r.(domain.ListingRequested); ok {
			lines++
			if change == -1 && strings.Contains(summary, "1 credit spent on listing ("+l.ListingID+")") {
				charged++
			}
		}
	}
	for _, r := range a1Events(t, twoRecs) {
		_, change := staff.Describe(r)
		change2 += change
	}
	if lines != 8 || charged != 8 || change1 != change2 {
		t.Fatalf("history: %d listing lines, %d with their charge; credit changes %d and %d", lines, charged, change1, change2)
	}
}

// split returns the two-event form of a record that carries a charge (nil
// for one that does not): the CreditsSpent, then the event without it.
func split(t *testing.T, r eventstore.Record) (spent, rest *eventstore.NewEvent) {
	t.Helper()
	ev, err := domain.DecodeEvent(r.Type, r.SchemaVersion, r.Data)
	if err != nil {
		t.Fatal(err)
	}
	var charge domain.CreditsSpent
	switch e := ev.(type) {
	case domain.ListingRequested:
		if e.Spent == nil {
			return nil, nil
		}
		charge, e.Spent = *e.Spent, nil
		ev = e
	case domain.VeroCheckPerformed:
		if e.Spent == nil {
			return nil, nil
		}
		charge, e.Spent = *e.Spent, nil
		ev = e
	default:
		return nil, nil
	}
	encode := func(e domain.Event) *eventstore.NewEvent {
		typ, sv, data, err := domain.EncodeEvent(e)
		if err != nil {
			t.Fatal(err)
		}
		return &eventstore.NewEvent{Type: typ, SchemaVersion: sv, Data: data}
	}
	return encode(charge), encode(ev)
}

func a1Events(t *testing.T, recs []eventstore.Record) []domain.Event {
	t.Helper()
	out := make([]domain.Event, len(recs))
	for i, r := range recs {
		ev, err := domain.DecodeEvent(r.Type, r.SchemaVersion, r.Data)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = ev
	}
	return out
}

func rehydrate(t *testing.T, id string, recs []eventstore.Record) *domain.Account {
	t.Helper()
	history := make([]domain.Recorded, len(recs))
	for i, r := range recs {
		history[i] = domain.Recorded{Version: r.StreamVersion, At: r.RecordedAt, Event: a1Events(t, recs[i:i+1])[0]}
	}
	a, err := domain.Rehydrate(id, history)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
