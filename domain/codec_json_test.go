package domain

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestCodecReadsWhatEncodingJSONWrites: the domain writes events and
// snapshots with encoding/json and reads them with segmentio/encoding
// (issue 36); every event type and a snapshot read back write the same
// bytes again, so nothing is lost or changed between the two libraries.
// (segmentio/encoding does not know the omitzero tag, which the spend
// limits use, so it only reads.)
func TestCodecReadsWhatEncodingJSONWrites(t *testing.T) {
	for _, e := range oneOfEach() {
		typ, version, data, err := EncodeEvent(e)
		if err != nil {
			t.Fatalf("EncodeEvent(%T): %v", e, err)
		}
		back, err := DecodeEvent(typ, version, data)
		if err != nil {
			t.Fatalf("DecodeEvent(%s): %v", typ, err)
		}
		if _, _, again, _ := EncodeEvent(back); !bytes.Equal(again, data) {
			t.Errorf("%s: stored %s, read back and written again %s", typ, data, again)
		}
	}
	a := given(t, CreditsGranted{GrantID: "m1", Amount: 500, Source: SourceMonthly, ExpiresAt: ptr(day(30))},
		CreditsGranted{GrantID: "p1", Amount: 20, Source: SourcePurchase})
	if err := a.RequestListing("l1", "B08N5WRWNW", "https://www.amazon.com/dp/B08N5WRWNW", day(1)); err != nil {
		t.Fatal(err)
	}
	snap, err := a.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	restored, err := RestoreSnapshot(testAccountID, 5, snap)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := restored.Snapshot(); !bytes.Equal(again, snap) {
		t.Errorf("snapshot %s, restored and taken again %s", snap, again)
	}
	if want, _ := json.Marshal(snapshot{Format: snapshotFormat, State: restored.s}); !bytes.Equal(want, snap) {
		t.Errorf("restored state writes %s, want %s", want, snap)
	}
}
