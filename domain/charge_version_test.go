package domain

import (
	"errors"
	"reflect"
	"testing"
)

// A listing or VeRO check that carries its charge is stored at
// chargeCarrierVersion, so a binary from before (which knows version 1 only)
// refuses it rather than reading a paid listing as unpaid; without the charge
// it stays at version 1, and both decode here.
func TestChargeCarriersAreStoredAtTheirOwnVersion(t *testing.T) {
	spent := &CreditsSpent{Amount: 1, Operation: OperationListing, Reference: "l-1", Draws: []Draw{{GrantID: "g", Amount: 1}}}
	for _, c := range []struct {
		e    Event
		want int
	}{
		{ListingRequested{ListingID: "l-1", ASIN: "B000TEST01", Spent: spent}, chargeCarrierVersion},
		{ListingRequested{ListingID: "l-1", ASIN: "B000TEST01"}, currentSchemaVersion},
		{VeroCheckPerformed{CheckID: "v-1", Brand: "Acme", Spent: spent}, chargeCarrierVersion},
		{VeroCheckPerformed{CheckID: "v-1", Brand: "Acme"}, currentSchemaVersion},
		{*spent, currentSchemaVersion},
	} {
		typ, version, data, err := EncodeEvent(c.e)
		if err != nil {
			t.Fatal(err)
		}
		if version != c.want {
			t.Errorf("%T (spent %v) stored at version %d, want %d", c.e, c.want == chargeCarrierVersion, version, c.want)
		}
		back, err := DecodeEvent(typ, version, data)
		if err != nil {
			t.Fatalf("decode %s v%d: %v", typ, version, err)
		}
		if !reflect.DeepEqual(back, c.e) {
			t.Errorf("decoded %#v, want %#v", back, c.e)
		}
	}
	if chargeCarrierVersion == currentSchemaVersion {
		t.Fatal("a charge carrier must be stored at a version binaries from before do not know")
	}
	// The stored JSON of a listing from before the change (no "spent") at version 1.
	old, err := DecodeEvent("ListingRequested", 1, []byte(`{"listingId":"l-0","asin":"B000TEST00","amazonUrl":""}`))
	if err != nil || old.(ListingRequested).Spent != nil {
		t.Fatalf("old listing = %#v, %v", old, err)
	}
	// Only the carriers have a version 2.
	if _, err := DecodeEvent("CreditsSpent", chargeCarrierVersion, []byte(`{"amount":1}`)); !errors.Is(err, ErrUnsupportedSchemaVersion) {
		t.Fatalf("CreditsSpent v2: %v, want ErrUnsupportedSchemaVersion", err)
	}
}
