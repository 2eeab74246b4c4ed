package domain

import (
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
