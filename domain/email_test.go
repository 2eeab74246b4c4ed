package domain

import "testing"

func TestEmailRule(t *testing.T) {
	for _, tc := range []struct {
		in, normal string
		ok         bool
	}{
		{"seller@example.com", "seller@example.com", true},
		{"  Seller@Example.COM ", "seller@example.com", true},
		{"first.last+tag@sub.example.co.uk", "first.last+tag@sub.example.co.uk", true},
		{"ｓｅｌｌｅｒ@ｅｘａｍｐｌｅ.com", "seller@example.com", true}, // full-width look-alike folds into the plain address
		{"seller@münchen.de", "seller@münchen.de", true},
		{"seller@xn--mnchen-3ya.de", "seller@xn--mnchen-3ya.de", true},
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
