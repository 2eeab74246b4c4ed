package domain

import (
	"net/mail"
	"strings"
	"unicode"

	"golang.org/x/net/idna"
	"golang.org/x/text/unicode/norm"
)

// MsgInvalidEmail is the spec's answer to an address that is not valid.
const MsgInvalidEmail = "Please enter a valid email address"

// maxEmailLength bounds an address (RFC 5321's path limit).
const maxEmailLength = 254

// NormalizeEmail is the one form an address is stored, compared and looked
// up in: trimmed, NFKC-normalised (so full-width and other compatibility
// look-alikes fold into the plain letters) and lowercased. It never fails;
// CheckEmail says whether the result is a valid address.
func NormalizeEmail(s string) string {
	return strings.ToLower(norm.NFKC.String(strings.TrimSpace(s)))
}

// CheckEmail accepts a normalised address that a seller can receive mail
// at: a plain addr-spec (no display name, no spaces, no control, bidi or
// other invisible format characters) whose domain is a host name of at
// least two valid labels, never an IP literal or a numeric top-level label.
func CheckEmail(email string) error {
	invalid := Errorf(CodeInvalid, MsgInvalidEmail)
	if email == "" || len(email) > maxEmailLength || email != NormalizeEmail(email) {
		return invalid
	}
	for _, r := range email {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.IsSpace(r) || r == unicode.ReplacementChar {
			return invalid
		}
	}
	a, err := mail.ParseAddress(email)
	if err != nil || a.Name != "" || a.Address != email {
		return invalid
	}
	at := strings.LastIndexByte(email, '@')
	local, host := email[:at], email[at+1:]
	if local == "" || strings.HasPrefix(host, "[") {
		return invalid
	}
	ascii, err := idna.Lookup.ToASCII(host)
	if err != nil {
		return invalid
	}
	labels := strings.Split(ascii, ".")
	if len(labels) < 2 || strings.Trim(labels[len(labels)-1], "0123456789") == "" {
		return invalid
	}
	for _, l := range labels {
		if !hostLabel(l) {
			return invalid
		}
	}
	return nil
}

// hostLabel reports whether l is a DNS host label in ASCII form: 1 to 63
// letters, digits and hyphens, not starting or ending with a hyphen.
func hostLabel(l string) bool {
	if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
