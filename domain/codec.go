package domain

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	jsondecode "github.com/segmentio/encoding/json" // reads only: it ignores omitzero (issue 36)
)

// currentSchemaVersion is the schema version of every event type this
// package defines. An event whose meaning changes becomes a new type, so the
// version moves only when an existing shape gains an upcaster.
const currentSchemaVersion = 1

// chargeCarrierVersion is the schema version of a ListingRequested or a
// VeroCheckPerformed that carries its charge (Spent set, issue 36's tenth
// session: a spend is one event). Version 1 of both is the same shape
// without the charge, which this package decodes alike; a binary from
// before knows version 1 only, so it refuses these events
// (ErrUnsupportedSchemaVersion) instead of reading a paid listing as an
// unpaid one: a projector stops, a command on the account fails, and no
// balance is shown or decided without the charge.
const chargeCarrierVersion = 2

// versioned is an event whose stored schema version depends on its value.
type versioned interface{ schemaVersion() int }

// chargeCarriers are the event types stored at chargeCarrierVersion when
// they carry their charge.
var chargeCarriers = map[string]bool{
	ListingRequested{}.EventType():   true,
	VeroCheckPerformed{}.EventType(): true,
}

// decodesAsCurrent reports whether the stored version of eventType is one
// its current decoder reads.
func decodesAsCurrent(eventType string, schemaVersion int) bool {
	return schemaVersion == currentSchemaVersion || (schemaVersion == chargeCarrierVersion && chargeCarriers[eventType])
}

// Errors of the codec, wrapped with the event type and version at hand.
var (
	ErrUnknownEventType         = errors.New("unknown event type")
	ErrUnsupportedSchemaVersion = errors.New("unsupported schema version")
)

// EncodeEvent returns the stored form of e: its type name, its schema
// version and its JSON data.
func EncodeEvent(e Event) (eventType string, schemaVersion int, data []byte, err error) {
	if e == nil {
		return "", 0, nil, fmt.Errorf("encode event: %w: nil", ErrUnknownEventType)
	}
	eventType = e.EventType()
	if decoderFor(eventType) == nil {
		return "", 0, nil, fmt.Errorf("encode event: %w %q", ErrUnknownEventType, eventType)
	}
	data, err = json.Marshal(e)
	if err != nil {
		return "", 0, nil, fmt.Errorf("encode %s: %w", eventType, err)
	}
	version := currentSchemaVersion
	if v, ok := e.(versioned); ok {
		version = v.schemaVersion()
	}
	return eventType, version, data, nil
}

// DecodeEvent returns the event stored as (eventType, schemaVersion, data),
// as a value of its concrete type. It knows only current shapes; see Codec
// for older ones.
func DecodeEvent(eventType string, schemaVersion int, data []byte) (Event, error) {
	return NewCodec(nil).Decode(eventType, schemaVersion, data)
}

// UpcastKey names a stored shape: an event type at a schema version.
type UpcastKey struct {
	Type    string
	Version int
}

// Upcaster rewrites the data of one stored shape into a newer shape.
type Upcaster func(data []byte) (newType string, newVersion int, newData []byte, err error)

// Codec decodes stored events, upcasting older shapes into current ones.
type Codec struct {
	upcasters map[UpcastKey]Upcaster
}

// NewCodec returns a Codec that applies upcasters, keyed by the shape each
// one reads. The map is copied.
func NewCodec(upcasters map[UpcastKey]Upcaster) *Codec {
	return &Codec{upcasters: maps.Clone(upcasters)}
}

// Decode returns the event stored as (eventType, schemaVersion, data), as a
// value of its concrete type. Until the shape is a current one it applies
// the upcaster registered for it; a shape with neither is an error wrapping
// ErrUnknownEventType or ErrUnsupportedSchemaVersion.
func (c *Codec) Decode(eventType string, schemaVersion int, data []byte) (Event, error) {
	var seen map[UpcastKey]bool // the shapes upcast so far, to stop a cycle
	for {
		decode := decoderFor(eventType)
		if decode != nil && decodesAsCurrent(eventType, schemaVersion) {
			e, err := decode(data)
			if err != nil {
				return nil, fmt.Errorf("decode %s v%d: %w", eventType, schemaVersion, err)
			}
			return e, nil
		}
		key := UpcastKey{Type: eventType, Version: schemaVersion}
		upcast, ok := c.upcasters[key]
		switch {
		case !ok && decode == nil:
			return nil, fmt.Errorf("decode event: %w %q (schema version %d)", ErrUnknownEventType, eventType, schemaVersion)
		case !ok:
			return nil, fmt.Errorf("decode %s: %w %d", eventType, ErrUnsupportedSchemaVersion, schemaVersion)
		case seen[key]:
			return nil, fmt.Errorf("decode %s v%d: upcasters run in a cycle", eventType, schemaVersion)
		}
		if seen == nil {
			seen = make(map[UpcastKey]bool)
		}
		seen[key] = true
		var err error
		if eventType, schemaVersion, data, err = upcast(data); err != nil {
			return nil, fmt.Errorf("upcast %s v%d: %w", key.Type, key.Version, err)
		}
	}
}

// decoders is the codec's registry: the decoder of the current shape of
// every event type this package defines, by type name. It is the one list
// of event types (EventTypes): the tests walk it through every fold of the
// account's state, of the read tables and of the staff history.
var decoders = map[string]func([]byte) (Event, error){
	AccountRegistered{}.EventType():       decodeAs[AccountRegistered],
	EmailVerified{}.EventType():           decodeAs[EmailVerified],
	PasswordChanged{}.EventType():         decodeAs[PasswordChanged],
	APIKeyIssued{}.EventType():            decodeAs[APIKeyIssued],
	APIKeyRotated{}.EventType():           decodeAs[APIKeyRotated],
	SubscriptionActivated{}.EventType():   decodeAs[SubscriptionActivated],
	SubscriptionRenewed{}.EventType():     decodeAs[SubscriptionRenewed],
	SubscriptionPastDue{}.EventType():     decodeAs[SubscriptionPastDue],
	SubscriptionCancelled{}.EventType():   decodeAs[SubscriptionCancelled],
	SubscriptionEnded{}.EventType():       decodeAs[SubscriptionEnded],
	CreditsGranted{}.EventType():          decodeAs[CreditsGranted],
	CreditsSpent{}.EventType():            decodeAs[CreditsSpent],
	CreditsDebited{}.EventType():          decodeAs[CreditsDebited],
	CreditsExpired{}.EventType():          decodeAs[CreditsExpired],
	ListingRequested{}.EventType():        decodeAs[ListingRequested],
	VeroCheckPerformed{}.EventType():      decodeAs[VeroCheckPerformed],
	SoftwareDownloaded{}.EventType():      decodeAs[SoftwareDownloaded],
	PaymentRecorded{}.EventType():         decodeAs[PaymentRecorded],
	StaffNoteRecorded{}.EventType():       decodeAs[StaffNoteRecorded],
	SubscriptionResumed{}.EventType():     decodeAs[SubscriptionResumed],
	PaymentRefunded{}.EventType():         decodeAs[PaymentRefunded],
	CreditsRevoked{}.EventType():          decodeAs[CreditsRevoked],
	DebtRepaid{}.EventType():              decodeAs[DebtRepaid],
	DisputeOpened{}.EventType():           decodeAs[DisputeOpened],
	DisputeClosed{}.EventType():           decodeAs[DisputeClosed],
	SpendLimitsSet{}.EventType():          decodeAs[SpendLimitsSet],
	SpendLimitReached{}.EventType():       decodeAs[SpendLimitReached],
	AlertSettingsChanged{}.EventType():    decodeAs[AlertSettingsChanged],
	LowBalanceAlerted{}.EventType():       decodeAs[LowBalanceAlerted],
	BalanceRecovered{}.EventType():        decodeAs[BalanceRecovered],
	ExpiryReminderSent{}.EventType():      decodeAs[ExpiryReminderSent],
	WebhookEndpointAdded{}.EventType():    decodeAs[WebhookEndpointAdded],
	WebhookSecretRolled{}.EventType():     decodeAs[WebhookSecretRolled],
	WebhookEndpointRemoved{}.EventType():  decodeAs[WebhookEndpointRemoved],
	WebhookEndpointDisabled{}.EventType(): decodeAs[WebhookEndpointDisabled],
	AutoRechargeSet{}.EventType():         decodeAs[AutoRechargeSet],
	PaymentMethodSaved{}.EventType():      decodeAs[PaymentMethodSaved],
	PaymentMethodRemoved{}.EventType():    decodeAs[PaymentMethodRemoved],
	RechargeRequested{}.EventType():       decodeAs[RechargeRequested],
	RechargeFailed{}.EventType():          decodeAs[RechargeFailed],
	RechargeNeedsAction{}.EventType():     decodeAs[RechargeNeedsAction],
	AutoRechargeDisabled{}.EventType():    decodeAs[AutoRechargeDisabled],
	APIKeyCreated{}.EventType():           decodeAs[APIKeyCreated],
	APIKeyRevoked{}.EventType():           decodeAs[APIKeyRevoked],
	APIKeyExpired{}.EventType():           decodeAs[APIKeyExpired],
}

// EventTypes returns the name of every event type the codec knows, sorted.
func EventTypes() []string {
	return slices.Sorted(maps.Keys(decoders))
}

// decoderFor returns the decoder of the current shape of eventType, or nil
// for a type this package does not define.
func decoderFor(eventType string) func([]byte) (Event, error) {
	return decoders[eventType]
}

func decodeAs[E Event](data []byte) (Event, error) {
	var e E
	if err := jsondecode.Unmarshal(data, &e); err != nil {
		return nil, err
	}
	return e, nil
}
