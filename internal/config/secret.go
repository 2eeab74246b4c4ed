package config

import (
	"fmt"
	"math"
	"strings"
)

// minSecretBits is the least APP_SECRET production accepts, estimated by
// secretBits: 32 random hex digits measure 84 to 128, 32 random base64
// characters about 150; 32 × "a", "abcd…" and "secret12" × 4 under 40.
const minSecretBits = 64

// secretProblem says why secret is too weak to key API-key encryption,
// session and code HMACs, and download links in production, or "" when it
// is strong enough (issue 31, item 14): long enough, and random-looking
// by the estimate of secretBits.
func secretProblem(secret string) string {
	const advice = "APP_SECRET must be set to a random value of at least 32 characters in production (for example `openssl rand -hex 32`)"
	switch {
	case secret == "" || secret == DevelopmentSecret || len(secret) < 32:
		return advice
	case secretBits(secret) < minSecretBits:
		return fmt.Sprintf("%s: this one is too predictable (about %.0f bits of the %d needed: repeated or sequential characters)",
			advice, secretBits(secret), minSecretBits)
	}
	return ""
}

// secretBits estimates the entropy of s from its bytes: their empirical
// Shannon entropy per byte times the number of bytes that are news: not
// continuing a run or sequence of the two before (aaaa, abcd, 4321), and not
// ending three bytes seen together before (secret12secret12), so neither a
// run, a sequence nor a repeated word passes for randomness. An estimate,
// not a proof: it catches the values people type, not a cleverly chosen
// weak one.
func secretBits(s string) float64 {
	counts := map[byte]int{}
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	var perByte float64
	for _, n := range counts {
		p := float64(n) / float64(len(s))
		perByte -= p * math.Log2(p)
	}
	fresh := min(len(s), 2) // the first two bytes
	for i := 2; i < len(s); i++ {
		d := int(s[i]) - int(s[i-1])
		sequence := d >= -1 && d <= 1 && d == int(s[i-1])-int(s[i-2])
		if !sequence && !strings.Contains(s[:i], s[i-2:i+1]) {
			fresh++
		}
	}
	return perByte * float64(fresh)
}
