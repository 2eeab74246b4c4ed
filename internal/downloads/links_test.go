package downloads

import (
	"strings"
	"testing"
	"time"
)

func TestLinks(t *testing.T) {
	l := newLinks("secret one of at least thirty-two characters")
	now := time.Date(2025, 3, 1, 12, 0, 0, 500, time.UTC)
	token, expires := l.issue("acct-1", now)
	if !expires.Equal(time.Date(2025, 3, 1, 12, 5, 0, 0, time.UTC)) {
		t.Fatalf("expires = %v", expires)
	}
	if err := l.check(token, "acct-1", now.Add(LinkTTL-time.Second)); err != nil {
		t.Fatalf("a fresh token: %v", err)
	}
	exp, mac, _ := strings.Cut(token, ".")
	for name, c := range map[string]struct {
		token, account string
		at             time.Time
	}{
		"expired":          {token, "acct-1", now.Add(LinkTTL)},
		"another account":  {token, "acct-2", now},
		"another secret":   {exp + "." + newLinks("another secret").sign("acct-1", exp), "acct-1", now},
		"a later expiry":   {"9999999999." + mac, "acct-1", now},
		"no signature":     {exp, "acct-1", now},
		"empty":            {"", "acct-1", now},
		"not a number":     {"soon." + mac, "acct-1", now},
		"a changed letter": {exp + "." + flip(mac), "acct-1", now},
	} {
		if err := l.check(c.token, c.account, c.at); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// flip changes the first character of s.
func flip(s string) string {
	if s[0] == 'A' {
		return "B" + s[1:]
	}
	return "A" + s[1:]
}
