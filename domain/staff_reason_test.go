package domain

import (
	"errors"
	"strings"
	"testing"
)

func TestStaffReason(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"  goodwill  ", "goodwill", true},
		{"abc", "abc", true},
		{"ab", "", false},
		{"   ", "", false},
		{"  é€x ", "é€x", true}, // counted in characters, not bytes
		{strings.Repeat("x", 500), strings.Repeat("x", 500), true},
		{strings.Repeat("x", 501), "", false},
	} {
		got, err := StaffReason(tc.in)
		if tc.ok && (err != nil || got != tc.want) {
			t.Errorf("StaffReason(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
		if !tc.ok && (!errors.Is(err, ErrStaffReason) || ErrorCode(err) != CodeInvalid ||
			ErrorMessage(err) != "A reason of 3 to 500 characters is required") {
			t.Errorf("StaffReason(%q) = %q, %v; want ErrStaffReason", tc.in, got, err)
		}
	}
}
