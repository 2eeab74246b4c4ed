// Package amazonurl reads the Amazon product addresses the desktop client
// sends when it asks for a listing: which marketplace and which product.
// It is pure: no I/O.
package amazonurl

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Product is an Amazon product on one marketplace.
type Product struct {
	ASIN string // 10 characters, A-Z and 0-9
	Host string // the marketplace's canonical host, such as www.amazon.co.uk
}

// URL is the product's canonical address: https, the canonical host and
// /dp/ASIN, without the tracking parameters shared links carry.
func (p Product) URL() string { return "https://" + p.Host + "/dp/" + p.ASIN }

// ErrNotProductURL is returned for anything Parse does not accept.
var ErrNotProductURL = errors.New("not an Amazon product URL")

// ErrShortLink is returned for Amazon's short links (a.co, amzn.to …),
// which name the product only through a redirect this package does not
// follow: the sender should open the link and send the product address it
// leads to. It is also an ErrNotProductURL.
var ErrShortLink = fmt.Errorf("%w: an Amazon short link", ErrNotProductURL)

// shortLinkHosts are Amazon's link shorteners.
var shortLinkHosts = map[string]bool{"a.co": true, "amzn.to": true, "amzn.eu": true, "amzn.asia": true, "amzn.com": true}

// defaultPorts are the ports an address may name explicitly: its scheme's own.
var defaultPorts = map[string]string{"http": "80", "https": "443"}

// maxURLLength bounds the input; product links are far shorter.
const maxURLLength = 2048

// marketplaces are the top-level domains of Amazon's marketplaces: the host
// is amazon.<one of these>, optionally behind www. or smile.
var marketplaces = map[string]bool{
	"com": true, "ca": true, "com.mx": true, "com.br": true, "co.uk": true, "ie": true,
	"de": true, "fr": true, "it": true, "es": true, "nl": true, "se": true, "pl": true,
	"com.be": true, "com.tr": true, "ae": true, "sa": true, "eg": true, "in": true,
	"co.jp": true, "com.au": true, "sg": true, "cn": true, "co.za": true,
}

// Parse returns the product that raw, an http or https address on
// an Amazon marketplace host (with or without www., smile. or m.; a port
// only if it is the scheme's own), points at. The ASIN is read from the path forms
// /dp/ASIN (also after a product-name slug, /Name/dp/ASIN), /gp/product/ASIN,
// /gp/aw/d/ASIN (mobile share links), /exec/obidos/ASIN/ASIN and /o/ASIN/ASIN
// (the literal ASIN segment is optional in those two), each also behind a
// language segment /-/<lang> (/-/en/dp/ASIN). Whatever follows the
// ASIN (ref=… segments, query, fragment) is ignored. ASINs are uppercased.
// Anything else is ErrNotProductURL.
func Parse(raw string) (Product, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" || len(raw) > maxURLLength {
		return Product{}, ErrNotProductURL
	}
	u, err := url.Parse(raw)
	if err != nil {
		return Product{}, ErrNotProductURL
	}
	scheme := strings.ToLower(u.Scheme)
	if (scheme != "http" && scheme != "https") || u.User != nil || u.Opaque != "" || (u.Port() != "" && u.Port() != defaultPorts[scheme]) {
		return Product{}, ErrNotProductURL
	}
	if shortLinkHosts[strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")] {
		return Product{}, ErrShortLink
	}
	host, ok := marketplaceHost(u.Hostname())
	if !ok {
		return Product{}, ErrNotProductURL
	}
	asin, ok := asinFromPath(u.Path)
	if !ok {
		return Product{}, ErrNotProductURL
	}
	return Product{ASIN: asin, Host: host}, nil
}

// marketplaceHost returns the canonical www. host of an Amazon marketplace
// host, or false.
func marketplaceHost(h string) (string, bool) {
	h = strings.TrimSuffix(strings.ToLower(h), ".")
	for _, prefix := range []string{"www.", "smile.", "m."} {
		if rest, ok := strings.CutPrefix(h, prefix); ok {
			h = rest
			break
		}
	}
	tld, ok := strings.CutPrefix(h, "amazon.")
	if !ok || !marketplaces[tld] {
		return "", false
	}
	return "www.amazon." + tld, true
}

// asinFromPath finds the ASIN in one of the product path forms.
func asinFromPath(p string) (string, bool) {
	var segs []string
	for s := range strings.SplitSeq(p, "/") {
		if s != "" {
			segs = append(segs, s)
		}
	}
	if len(segs) >= 2 && segs[0] == "-" {
		segs = segs[2:] // a language: /-/en/dp/ASIN, /-/es/Name/dp/ASIN
	}
	at := func(i int) string {
		if i < len(segs) {
			return segs[i]
		}
		return ""
	}
	lower := func(i int) string { return strings.ToLower(at(i)) }
	switch {
	case lower(0) == "dp":
		return asin(at(1))
	case lower(1) == "dp":
		return asin(at(2))
	case lower(0) == "gp" && lower(1) == "product":
		return asin(at(2))
	case lower(0) == "gp" && lower(1) == "aw" && lower(2) == "d":
		return asin(at(3))
	case lower(0) == "exec" && lower(1) == "obidos":
		return literalASINSegment(segs[2:])
	case lower(0) == "o":
		return literalASINSegment(segs[1:])
	}
	return "", false
}

// literalASINSegment reads "ASIN/<asin>" or "<asin>" from the start of segs.
func literalASINSegment(segs []string) (string, bool) {
	if len(segs) >= 2 && strings.EqualFold(segs[0], "asin") {
		return asin(segs[1])
	}
	if len(segs) >= 1 {
		return asin(segs[0])
	}
	return "", false
}

// asin returns s uppercased when it is an ASIN: 10 letters or digits.
func asin(s string) (string, bool) {
	if len(s) != 10 {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 'A' || c > 'Z') && (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return "", false
		}
	}
	return strings.ToUpper(s), true
}
