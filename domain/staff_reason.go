package domain

import (
	"strings"
	"unicode/utf8"
)

// Bounds of a staff member's reason for a money action (an adjustment, a
// debit, a refund, a cancellation), in characters after trimming.
const (
	MinStaffReason = 3
	MaxStaffReason = 500
)

// ErrStaffReason is the broken staff-reason rule, in the words the spec and
// the console show. It is the one error StaffReason returns: match it with
// errors.Is; an HTTP handler puts its message on the "reason" field.
var ErrStaffReason = &Error{Code: CodeInvalid, Message: "A reason of 3 to 500 characters is required"}

// StaffReason is the one rule of a staff member's reason: reason trimmed,
// or ErrStaffReason when that is not MinStaffReason to MaxStaffReason
// characters long.
func StaffReason(reason string) (string, error) {
	r := strings.TrimSpace(reason)
	if n := utf8.RuneCountInString(r); n < MinStaffReason || n > MaxStaffReason {
		return "", ErrStaffReason
	}
	return r, nil
}
