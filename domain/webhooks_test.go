package domain

import (
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestWebhookEndpointsAtMostFiveAndKnownEvents(t *testing.T) {
	now := time.Date(2026, 11, 27, 5, 0, 0, 0, time.UTC)
	a := given(t, EmailVerified{})
	if err := a.AddWebhookEndpoint("we_x", "https://h.example", []string{"credits.granted", "nope"}, now); ErrorCode(err) != CodeInvalid {
		t.Fatalf("unknown event type: %v", err)
	}
	if err := a.AddWebhookEndpoint("we_x", "https://h.example", nil, now); ErrorCode(err) != CodeInvalid {
		t.Fatalf("no event types: %v", err)
	}
	for i := range MaxWebhookEndpoints {
		if err := a.AddWebhookEndpoint(fmt.Sprintf("we_%d", i), "https://h.example", []string{WebhookBalanceLow}, now); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.AddWebhookEndpoint("we_6", "https://h.example", []string{WebhookBalanceLow}, now); !errors.Is(err, ErrTooManyWebhookEndpoints) {
		t.Fatalf("sixth endpoint: %v", err)
	}
	if err := a.RemoveWebhookEndpoint("we_0", now); err != nil {
		t.Fatal(err)
	}
	if err := a.RemoveWebhookEndpoint("we_0", now); !errors.Is(err, ErrWebhookEndpointNotFound) {
		t.Fatalf("removed twice: %v", err)
	}
	if err := a.AddWebhookEndpoint("we_6", "https://h.example", []string{WebhookBalanceLow}, now); err != nil {
		t.Fatalf("after a removal: %v", err)
	}
	if err := a.RollWebhookSecret("we_1", now); err != nil {
		t.Fatal(err)
	}
	before := len(a.Changes())
	_ = a.DisableWebhookEndpoint("we_1", "failing", now)
	_ = a.DisableWebhookEndpoint("we_1", "failing", now)
	if got := len(a.Changes()) - before; got != 1 {
		t.Fatalf("disabled twice recorded %d events, want 1", got)
	}
}
