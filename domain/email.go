package domain

import (
	"net/mail"
	"slices"
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
// look-alikes fold into the plain letters) and lowercased, with its domain
// in ASCII as UTS #46 maps it for look-up (v@bücher.example and
// v@xn--bcher-kva.example are one address, stored as the second). It never
// fails: a domain that does not map is left as it is, and CheckEmail says
// whether the result is a valid address.
func NormalizeEmail(s string) string {
	email := strings.ToLower(norm.NFKC.String(strings.TrimSpace(s)))
	at := strings.LastIndexByte(email, '@')
	// UTS #46 deletes invisible characters (a@exam\u200bple.com would map
	// to a@example.com); such an address stays as typed, and CheckEmail
	// refuses it.
	if at < 0 || strings.HasPrefix(email[at+1:], "[") || strings.ContainsFunc(email[at+1:], invisible) {
		return email
	}
	if ascii, err := idna.Lookup.ToASCII(email[at+1:]); err == nil && ascii != "" {
		return email[:at+1] + ascii
	}
	return email
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
	if strings.ContainsFunc(email, invisible) {
		return invalid
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

// invisible reports whether r is a character an address must not hold:
// control, format (bidi, zero-width), space, variation selector or other
// default-ignorable, or the replacement character.
func invisible(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || unicode.IsSpace(r) || r == unicode.ReplacementChar ||
		unicode.Is(unicode.Variation_Selector, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r)
}

// MsgMixedScriptEmail refuses a new address whose name mixes alphabets.
const MsgMixedScriptEmail = "Please enter a valid email address: its name mixes letters from different alphabets"

// CheckNewEmail is CheckEmail for an address a new account is to have: its
// local part must also not mix scripts (pаypal with a Cyrillic а), the look-
// alike of another address that the canonical form cannot fold. Existing
// accounts keep signing in with what they have, so sign-in checks only
// CheckEmail.
func CheckNewEmail(email string) error {
	if err := CheckEmail(email); err != nil {
		return err
	}
	if mixedScripts(email[:strings.LastIndexByte(email, '@')]) {
		return Errorf(CodeInvalid, MsgMixedScriptEmail)
	}
	return nil
}

// scriptSets are the mixes of scripts one writing system uses (UTS #39's
// "highly restrictive" level): Japanese, Chinese with Bopomofo, Korean,
// each with Latin.
var scriptSets = [][]string{
	{"Latin", "Han", "Hiragana", "Katakana"},
	{"Latin", "Han", "Bopomofo"},
	{"Latin", "Han", "Hangul"},
}

// mixedScripts reports whether s holds letters of more than one script
// (Common and Inherited characters, digits and punctuation, belong to
// any), unless one writing system mixes them.
func mixedScripts(s string) bool {
	seen := map[string]bool{}
	for _, r := range s {
		if r < 0x80 {
			if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
				seen["Latin"] = true
			}
			continue
		}
		if sc := scriptOf(r); sc != "" {
			seen[sc] = true
		}
	}
	if len(seen) <= 1 {
		return false
	}
	for _, set := range scriptSets {
		if allIn(seen, set) {
			return false
		}
	}
	return true
}

// scriptOf is the Unicode script of r, or "" for Common, Inherited and
// unassigned characters.
func scriptOf(r rune) string {
	for name, table := range unicode.Scripts {
		if name != "Common" && name != "Inherited" && unicode.Is(table, r) {
			return name
		}
	}
	return ""
}

func allIn(seen map[string]bool, set []string) bool {
	for sc := range seen {
		if !slices.Contains(set, sc) {
			return false
		}
	}
	return true
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
