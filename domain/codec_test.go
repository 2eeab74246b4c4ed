package domain

import (
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// oneOfEach holds a sample of every event type, with every field set.
func oneOfEach() []Event {
	start := time.Date(2025, time.March, 1, 12, 0, 0, 0, time.UTC)
	expires := start.AddDate(0, 0, 9)
	return []Event{
		AccountRegistered{AccountID: "acc-1", Email: "seller@example.com"},
		EmailVerified{},
		PasswordChanged{Reason: "reset"},
		APIKeyIssued{KeyID: "k1", Prefix: "a2e_1", Hash: "h1", Encrypted: "e1"},
		APIKeyRotated{KeyID: "k2", PreviousKeyID: "k1", Prefix: "a2e_2", Hash: "h2", Encrypted: "e2"},
		APIKeyCreated{KeyID: "k3", Name: "Laptop", Mode: KeyModeLive, Prefix: "a2e_3", Hash: "h3", Encrypted: "e3", ExpiresAt: &expires},
		APIKeyRotated{KeyID: "k4", PreviousKeyID: "k3", Prefix: "a2e_4", Hash: "h4", Encrypted: "e4", PreviousRetiresAt: &expires,
			Secondary: true, Name: "Laptop", Mode: KeyModeLive, ExpiresAt: &expires},
		APIKeyExpired{KeyID: "k3", Reason: KeyExpiredReasonGrace},
		APIKeyRevoked{KeyID: "k4"},
		SubscriptionActivated{SubscriptionID: "sub_1", PeriodStart: start, PeriodEnd: start.AddDate(0, 1, 0)},
		SubscriptionRenewed{SubscriptionID: "sub_1", PeriodStart: start.AddDate(0, 1, 0), PeriodEnd: start.AddDate(0, 2, 0)},
		SubscriptionPastDue{SubscriptionID: "sub_1"},
		SubscriptionCancelled{SubscriptionID: "sub_1", EndsAt: start.AddDate(0, 2, 0)},
		SubscriptionEnded{SubscriptionID: "sub_1"},
		CreditsGranted{GrantID: "g1", Amount: 100, Source: SourceAdjustment, ExpiresAt: &expires, Reference: "ticket 7", Reason: "goodwill"},
		CreditsSpent{Amount: 1, Operation: OperationListing, Reference: "l1", Draws: []Draw{{GrantID: "g1", Amount: 1}}},
		CreditsDebited{Amount: 3, Reason: "abuse", Draws: []Draw{{GrantID: "g1", Amount: 2}, {GrantID: "g2", Amount: 1}}},
		CreditsExpired{GrantID: "g1", Amount: 97},
		ListingRequested{ListingID: "l1", ASIN: "B000000001", AmazonURL: "https://www.amazon.com/dp/B000000001"},
		VeroCheckPerformed{CheckID: "c1", Brand: "Acme", Protected: true},
		SoftwareDownloaded{Platform: "windows", Version: "2.4.0"},
		PaymentRecorded{PaymentID: "pi_1", Kind: PaymentKindCredits, Description: "100 credits", AmountCents: 999, Status: PaymentPaid, InvoiceURL: "https://pay.example/i/1", Credits: 100},
		StaffNoteRecorded{Note: "rebuilt"},
		SubscriptionResumed{SubscriptionID: "sub_1", PeriodEnd: time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)},
		PaymentRefunded{PaymentID: "pi_1", AmountCents: 499, Status: PaymentPartiallyRefunded},
		CreditsRevoked{PaymentID: "pi_1", Share: 50, Amount: 40, Debt: 10, Reason: RevokedForRefund, Draws: []Draw{{GrantID: "g1", Amount: 40}}},
		DebtRepaid{Amount: 10, Draws: []Draw{{GrantID: "g2", Amount: 10}}},
		DisputeOpened{DisputeID: "dp_1", PaymentID: "pi_1", AmountCents: 999},
		DisputeClosed{DisputeID: "dp_1", PaymentID: "pi_1", Outcome: DisputeLost, PaymentStatus: PaymentChargedBack},
		SpendLimitsSet{DailyCredits: ptr(int64(100)), MonthlyCredits: ptr(int64(2000))},
		SpendLimitReached{Period: SpendLimitDaily, Limit: 100, Spent: 100, ResetsAt: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)},
		AlertSettingsChanged{LowBalanceCredits: ptr(int64(50)), ExpiringReminderDays: ptr(3)},
		LowBalanceAlerted{Threshold: 50, Available: 49},
		BalanceRecovered{Threshold: 50, Available: 550},
		ExpiryReminderSent{GrantID: "g-1", ExpiresAt: expires, Credits: 120, Days: 3},
		WebhookEndpointAdded{EndpointID: "we_1", URL: "https://hooks.example/a2e", Events: []string{WebhookCreditsGranted}},
		WebhookSecretRolled{EndpointID: "we_1"},
		WebhookEndpointRemoved{EndpointID: "we_1"},
		WebhookEndpointDisabled{EndpointID: "we_1", Reason: "failing for 3 days"},
		AutoRechargeSet{Enabled: true, ThresholdCredits: 50, PackCredits: 500, PackAmountCents: 2500, MonthlyLimitCents: 10000},
		PaymentMethodSaved{Brand: "visa", Last4: "4242"},
		PaymentMethodRemoved{},
		RechargeRequested{RechargeID: "recharge-1", Credits: 500, AmountCents: 2500, Threshold: 50, Available: 49},
		RechargeFailed{RechargeID: "recharge-1", PaymentID: "pi_1", Reason: "Your card was declined.", Failures: 1},
		RechargeNeedsAction{RechargeID: "recharge-2", PaymentID: "pi_2"},
		AutoRechargeDisabled{Reason: RechargeDisabledFailures},
	}
}

func TestCodecRoundTripsEveryEventType(t *testing.T) {
	sampled := make(map[string]bool)
	for _, e := range oneOfEach() {
		typ, version, data, err := EncodeEvent(e)
		if err != nil {
			t.Fatalf("encode %T: %v", e, err)
		}
		if typ != e.EventType() || version != 1 {
			t.Errorf("encode %T: type %q version %d", e, typ, version)
		}
		got, err := DecodeEvent(typ, version, data)
		if err != nil {
			t.Fatalf("decode %s: %v", typ, err)
		}
		if !reflect.DeepEqual(got, e) { // also proves a value, not a pointer, comes back
			t.Errorf("decode %s = %#v, want %#v", typ, got, e)
		}
		sampled[reflect.TypeOf(e).Name()] = true
	}
	for _, name := range eventTypesDeclared(t) {
		if !sampled[name] {
			t.Errorf("event type %s has no sample in oneOfEach", name)
		}
	}
}

// eventTypesDeclared returns the types of this package with an EventType
// method, read from its source (test files aside).
func eventTypesDeclared(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && fn.Name.Name == "EventType" {
				if id, ok := fn.Recv.List[0].Type.(*ast.Ident); ok {
					names = append(names, id.Name)
				}
			}
		}
	}
	if len(names) < 19 {
		t.Fatalf("found only %d event types: %v", len(names), names)
	}
	return names
}

func TestDecodeRejects(t *testing.T) {
	for _, tc := range []struct {
		name    string
		typ     string
		version int
		data    string
		want    error // nil: any error
	}{
		{"unknown type", "CreditsGifted", 1, `{}`, ErrUnknownEventType},
		{"unknown type at another version", "CreditsGifted", 3, `{}`, ErrUnknownEventType},
		{"newer version of a known type", "CreditsGranted", 2, `{}`, ErrUnsupportedSchemaVersion},
		{"older version without an upcaster", "CreditsGranted", 0, `{}`, ErrUnsupportedSchemaVersion},
		{"malformed data", "CreditsGranted", 1, `{"amount":"many"}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := DecodeEvent(tc.typ, tc.version, []byte(tc.data))
			if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Fatalf("DecodeEvent = %#v, %v; want %v", e, err, tc.want)
			}
		})
	}
}

func TestEncodeRejectsForeignEvents(t *testing.T) {
	if _, _, _, err := EncodeEvent(foreignEvent{}); !errors.Is(err, ErrUnknownEventType) {
		t.Fatalf("foreign event: %v", err)
	}
	if _, _, _, err := EncodeEvent(nil); !errors.Is(err, ErrUnknownEventType) {
		t.Fatalf("nil event: %v", err)
	}
}

// creditsGrantedV0 is a made-up early shape of CreditsGranted, stored as
// type "CreditsGrantedV0" at version 0, with amounts in a string.
type creditsGrantedV0 struct {
	ID      string `json:"id"`
	Credits string `json:"credits"`
	Kind    string `json:"kind"`
}

func upcastCreditsGrantedV0(data []byte) (string, int, []byte, error) {
	var old creditsGrantedV0
	if err := json.Unmarshal(data, &old); err != nil {
		return "", 0, nil, err
	}
	var amount int64
	if _, err := fmt.Sscan(old.Credits, &amount); err != nil {
		return "", 0, nil, fmt.Errorf("credits %q: %w", old.Credits, err)
	}
	out, err := json.Marshal(CreditsGranted{GrantID: old.ID, Amount: amount, Source: old.Kind})
	return CreditsGranted{}.EventType(), 1, out, err
}

func TestCodecUpcasts(t *testing.T) {
	codec := NewCodec(map[UpcastKey]Upcaster{
		{Type: "CreditsGrantedV0", Version: 0}: upcastCreditsGrantedV0,
		// An even older name that first became CreditsGrantedV0: upcasters chain.
		{Type: "CreditsAdded", Version: 0}: func(data []byte) (string, int, []byte, error) {
			return "CreditsGrantedV0", 0, data, nil
		},
	})
	want := CreditsGranted{GrantID: "g1", Amount: 100, Source: SourcePurchase}
	for _, typ := range []string{"CreditsGrantedV0", "CreditsAdded"} {
		got, err := codec.Decode(typ, 0, []byte(`{"id":"g1","credits":"100","kind":"purchase"}`))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Decode %s v0 = %#v, %v; want %#v", typ, got, err, want)
		}
	}

	if _, err := codec.Decode("CreditsGrantedV0", 0, []byte(`{"id":"g1","credits":"lots"}`)); err == nil {
		t.Error("an upcaster's error was dropped")
	}
	if _, err := codec.Decode("CreditsGrantedV0", 1, []byte(`{}`)); !errors.Is(err, ErrUnknownEventType) {
		t.Errorf("a shape without an upcaster: %v", err)
	}
	if _, err := DecodeEvent("CreditsGrantedV0", 0, []byte(`{}`)); !errors.Is(err, ErrUnknownEventType) {
		t.Errorf("DecodeEvent used an upcaster it was not given: %v", err)
	}

	loop := NewCodec(map[UpcastKey]Upcaster{
		{Type: "A", Version: 0}: func(data []byte) (string, int, []byte, error) { return "B", 0, data, nil },
		{Type: "B", Version: 0}: func(data []byte) (string, int, []byte, error) { return "A", 0, data, nil },
	})
	if _, err := loop.Decode("A", 0, []byte(`{}`)); err == nil {
		t.Error("upcasters in a cycle did not fail")
	}
}

type foreignEvent struct{}

func (foreignEvent) EventType() string { return "Foreign" }
