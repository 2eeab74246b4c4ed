package domain

import (
	"encoding/json"
	"fmt"
	"testing"
)

// BenchmarkSpendCodec is the JSON work of one spend in the domain (issue
// 36): the locked account restored from its snapshot, the listing
// requested, its events encoded and the new snapshot taken.
func BenchmarkSpendCodec(b *testing.B) {
	var events []Event
	for i := range 3 {
		events = append(events, CreditsGranted{GrantID: fmt.Sprintf("g%d", i), Amount: 1000, Source: SourcePurchase})
	}
	a, err := Rehydrate(testAccountID, stream(append(opening(), events...)...))
	if err != nil {
		b.Fatal(err)
	}
	snap, err := a.Snapshot()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		a, err := RestoreSnapshot(testAccountID, 5, snap)
		if err != nil {
			b.Fatal(err)
		}
		if err := a.RequestListing("0b6f3c1e-6a52-4c8e-9a53-1f1c2f0e7d11", "B08N5WRWNW", "https://www.amazon.com/dp/B08N5WRWNW", day(1)); err != nil {
			b.Fatal(err)
		}
		for _, e := range a.Changes() {
			if _, _, _, err := EncodeEvent(e); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := a.Snapshot(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSnapshotCodec is one spend's snapshot work on a bench-load
// seller's state (one grant, spends counted): writing it with encoding/json
// and with appendSnapshot (Snapshot's), and reading it back
// (RestoreSnapshot, which internal/accounts' cache skips on a hit).
func BenchmarkSnapshotCodec(b *testing.B) {
	a, err := Rehydrate(testAccountID, stream(append(opening(), CreditsGranted{GrantID: "4f8c2a7e-8d0b-4c55-9a3e-2b7f1d6e9c01", Amount: 1_000_000_000, Source: SourcePurchase})...))
	if err != nil {
		b.Fatal(err)
	}
	if err := a.RequestListing("0b6f3c1e-6a52-4c8e-9a53-1f1c2f0e7d11", "B08N5WRWNW", "https://www.amazon.com/dp/B08N5WRWNW", day(1)); err != nil {
		b.Fatal(err)
	}
	snap, err := a.Snapshot()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(snapshot{Format: snapshotFormat, State: a.s}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("appendSnapshot", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := a.Snapshot(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("RestoreSnapshot", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := RestoreSnapshot(testAccountID, 5, snap); err != nil {
				b.Fatal(err)
			}
		}
	})
}
