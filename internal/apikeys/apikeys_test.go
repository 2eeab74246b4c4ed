package apikeys

import (
	"strings"
	"testing"
)

func TestGenerateEncryptDecrypt(t *testing.T) {
	k, err := New("test secret")
	if err != nil {
		t.Fatal(err)
	}
	plain, m, err := k.Generate()
	if err != nil {
		t.Fatal(err)
	}
	if !LooksValid(plain) || !strings.HasPrefix(plain, m.Prefix) || m.Hash != Hash(plain) || m.KeyID == "" {
		t.Fatalf("key %q material %+v", plain, m)
	}
	if strings.Contains(m.Encrypted, plain) || strings.Contains(m.Hash, plain) {
		t.Fatal("the material carries the plain key")
	}
	got, err := k.Decrypt(m.Encrypted)
	if err != nil || got != plain {
		t.Fatalf("decrypt = %q, %v", got, err)
	}
	other, _ := New("another secret")
	if _, err := other.Decrypt(m.Encrypted); err == nil {
		t.Fatal("decrypted with the wrong secret")
	}
	plain2, _, _ := k.Generate()
	if plain2 == plain {
		t.Fatal("two keys are equal")
	}
	if LooksValid("a2e_short") || LooksValid(strings.Repeat("x", 36)) {
		t.Fatal("junk looks valid")
	}
}
