package config

import (
	"slices"
	"testing"
)

func TestTrustedProxies(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			switch k {
			case "TRUSTED_PROXIES":
				return v
			case "APP_ENV":
				return Development
			}
			return ""
		}
	}
	c, err := Load(env(" 10.0.0.0/8, ,2001:db8::/32 "))
	if err != nil || !slices.Equal(c.TrustedProxies, []string{"10.0.0.0/8", "2001:db8::/32"}) {
		t.Fatalf("TrustedProxies = %v, %v", c.TrustedProxies, err)
	}
	if c, err := Load(env("")); err != nil || c.TrustedProxies != nil {
		t.Fatalf("unset = %v, %v", c.TrustedProxies, err)
	}
	if _, err := Load(env("10.0.0.1")); err == nil {
		t.Fatal("an address without a prefix length was accepted")
	}
}
