package domain

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorVocabulary(t *testing.T) {
	err := fmt.Errorf("spend: %w", Errorf(CodeInsufficientCredits, "Insufficient credits"))
	if ErrorCode(err) != CodeInsufficientCredits || ErrorMessage(err) != "Insufficient credits" {
		t.Fatalf("wrapped domain error: code %q, message %q", ErrorCode(err), ErrorMessage(err))
	}
	if err.Error() != "spend: insufficient_credits: Insufficient credits" {
		t.Fatalf("Error() = %q", err.Error())
	}
	if e := Errorf(CodeInvalid, "Unknown source %q", "gift"); e.Message != `Unknown source "gift"` {
		t.Fatalf("Errorf formats %q", e.Message)
	}
	other := errors.New("connection refused to 10.0.0.7")
	if ErrorCode(other) != "" || ErrorMessage(other) != "Internal error" {
		t.Fatalf("foreign error: code %q, message %q", ErrorCode(other), ErrorMessage(other))
	}
	if ErrorCode(nil) != "" || ErrorMessage(nil) != "" {
		t.Fatal("nil error has a code or a message")
	}
}
