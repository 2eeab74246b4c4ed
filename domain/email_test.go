package domain

import (
	"errors"
	"testing"
)

func TestEmailRule(t *testing.T) {
	for _, tc := range []struct {
		in, normal string
		ok         bool
	}{
		{"seller@example.com", "seller@example.com", true},
		{"  Seller@Example.COM ", "seller@example.com", true},
		{"first.last+tag@sub.example.co.uk", "first.last+tag@sub.example.co.uk", true},
		{"ｓｅｌｌｅｒ@ｅｘａｍｐｌｅ.com", "seller@example.com", true}, // full-width look-alike folds into the plain address
		// Issue 25, item 5: one form for the domain, ASCII per UTS #46.
		{"seller@münchen.de", "seller@xn--mnchen-3ya.de", true},
		{"seller@MÜNCHEN.de", "seller@xn--mnchen-3ya.de", true},
		{"seller@xn--mnchen-3ya.de", "seller@xn--mnchen-3ya.de", true},
		{"v@bücher.example", "v@xn--bcher-kva.example", true},
		{"v@XN--BCHER-KVA.example", "v@xn--bcher-kva.example", true},
		{"v@bücher。example", "v@xn--bcher-kva.example", true}, // ideographic full stop
		{"v@straße.de", "v@xn--strae-oqa.de", true},           // non-transitional: ß stays
		{"ünïcode@example.com", "ünïcode@example.com", true},  // the local part is not touched
		{"a@[127.0.0.1]", "a@[127.0.0.1]", false},
		{"a@127.0.0.1", "a@127.0.0.1", false},
		{"a@-example.test", "a@-example.test", false},
		{"a@example-.test", "a@example-.test", false},
		{"a@exa_mple.test", "a@exa_mple.test", false},
		{"a@example..test", "a@example..test", false},
		{"a@localhost", "a@localhost", false},
		{"a@example.com.", "a@example.com.", false},
		{"ev\u202eil@example.com", "ev\u202eil@example.com", false}, // right-to-left override
		{"a\u200b@example.com", "a\u200b@example.com", false},       // zero-width space
		{"a@exam\u200bple.com", "a@exam\u200bple.com", false},       // UTS #46 would delete it: kept, refused
		{"a@exam\u00adple.com", "a@exam\u00adple.com", false},       // soft hyphen
		{"a@bücher\ufe0f.example", "a@bücher\ufe0f.example", false},
		{"a\x00b@example.com", "a\x00b@example.com", false},
		{"a b@example.com", "a b@example.com", false},
		{"Name <a@example.com>", "name <a@example.com>", false},
		{"@example.com", "@example.com", false},
		{"plain", "plain", false},
		{"", "", false},
	} {
		got := NormalizeEmail(tc.in)
		if got != tc.normal {
			t.Errorf("NormalizeEmail(%q) = %q, want %q", tc.in, got, tc.normal)
		}
		if err := CheckEmail(got); (err == nil) != tc.ok {
			t.Errorf("CheckEmail(%q) = %v, want ok=%v", got, err, tc.ok)
		}
	}
}

func TestRegisterStoresTheNormalForm(t *testing.T) {
	a, err := Register("acc-1", "ＳＥＬＬＥＲ@Example.com", APIKeyMaterial{KeyID: "k", Prefix: "p", Hash: "h", Encrypted: "e"}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if a.Email() != "seller@example.com" {
		t.Fatalf("email = %q", a.Email())
	}
	if _, err := Register("acc-2", "a@[10.0.0.1]", APIKeyMaterial{KeyID: "k", Prefix: "p", Hash: "h", Encrypted: "e"}, t0); ErrorCode(err) != CodeInvalid {
		t.Fatalf("IP literal: err = %v", err)
	}
}

func TestNewEmailRefusesMixedScripts(t *testing.T) {
	for email, ok := range map[string]bool{
		"paypal@example.com":                          true,
		"p\u0430ypal@example.com":                     false, // Cyrillic а among Latin letters
		"\u0440\u0430\u0443\u0440\u0430l@example.com": false,
		"иван.петров@example.com":                     true, // one script
		"иван2024@example.com":                        true, // digits are common to all
		"山田taro@example.jp":                           true, // Japanese mixes Han and Latin
		"やまだ太郎@example.jp":                            true,
		"βeta@example.com":                            false, // Greek β among Latin
		"josé.garcía@example.com":                     true,
	} {
		err := CheckNewEmail(NormalizeEmail(email))
		if (err == nil) != ok {
			t.Errorf("CheckNewEmail(%q) = %v, want ok=%v", email, err, ok)
		}
		var de *Error
		if !ok && (!errors.As(err, &de) || de.Message != MsgMixedScriptEmail) {
			t.Errorf("CheckNewEmail(%q) = %q", email, err)
		}
		if CheckEmail(NormalizeEmail(email)) != nil {
			t.Errorf("CheckEmail(%q) refused it: an existing account could not sign in", email)
		}
	}
	if _, err := Register("acc-3", "p\u0430ypal@example.com", APIKeyMaterial{KeyID: "k", Prefix: "p", Hash: "h", Encrypted: "e"}, t0); ErrorCode(err) != CodeInvalid {
		t.Fatalf("a mixed-script address registered: %v", err)
	}
}
