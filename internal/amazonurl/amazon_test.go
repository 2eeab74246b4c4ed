package amazonurl

import (
	"errors"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	accepted := []struct {
		raw, asin, host string
	}{
		{"https://www.amazon.com/dp/B08N5WRWNW", "B08N5WRWNW", "www.amazon.com"},
		{"http://amazon.com/dp/B08N5WRWNW/", "B08N5WRWNW", "www.amazon.com"},
		{"  https://www.amazon.com/dp/B08N5WRWNW  ", "B08N5WRWNW", "www.amazon.com"},
		{"https://www.amazon.com/Apple-MacBook-Air-13-inch/dp/B08N5WRWNW/ref=sr_1_1?crid=2X&keywords=macbook", "B08N5WRWNW", "www.amazon.com"},
		{"https://www.amazon.com/dp/B08N5WRWNW?th=1#reviews", "B08N5WRWNW", "www.amazon.com"},
		{"https://www.amazon.com/gp/product/B08N5WRWNW", "B08N5WRWNW", "www.amazon.com"},
		{"https://www.amazon.com/gp/product/B08N5WRWNW/ref=ppx_yo_dt_b_asin_title", "B08N5WRWNW", "www.amazon.com"},
		{"https://www.amazon.com/gp/aw/d/B08N5WRWNW", "B08N5WRWNW", "www.amazon.com"},
		{"https://www.amazon.com/exec/obidos/ASIN/0140449264/", "0140449264", "www.amazon.com"},
		{"https://www.amazon.com/exec/obidos/0140449264", "0140449264", "www.amazon.com"},
		{"https://www.amazon.com/o/ASIN/0140449264", "0140449264", "www.amazon.com"},
		{"https://www.amazon.com/o/0140449264", "0140449264", "www.amazon.com"},
		{"https://www.amazon.co.uk/dp/B08N5WRWNW", "B08N5WRWNW", "www.amazon.co.uk"},
		{"https://amazon.de/dp/B08N5WRWNW", "B08N5WRWNW", "www.amazon.de"},
		{"https://smile.amazon.com/dp/B08N5WRWNW", "B08N5WRWNW", "www.amazon.com"},
		{"https://www.amazon.co.jp/dp/B08N5WRWNW", "B08N5WRWNW", "www.amazon.co.jp"},
		{"https://www.amazon.com.au/dp/B08N5WRWNW", "B08N5WRWNW", "www.amazon.com.au"},
		{"HTTPS://WWW.AMAZON.COM/DP/B08N5WRWNW", "B08N5WRWNW", "www.amazon.com"},
		{"https://www.amazon.com/dp/b08n5wrwnw", "B08N5WRWNW", "www.amazon.com"},
		{"https://www.amazon.com./dp/B08N5WRWNW", "B08N5WRWNW", "www.amazon.com"},
		{"https://www.amazon.com/-/en/dp/B08N5WRWNW", "B08N5WRWNW", "www.amazon.com"},
		{"https://www.amazon.com/-/es/Apple-MacBook-Air/dp/B08N5WRWNW/ref=sr_1_1", "B08N5WRWNW", "www.amazon.com"},
		{"https://m.amazon.com/dp/B08N5WRWNW", "B08N5WRWNW", "www.amazon.com"},
		{"https://m.amazon.co.uk/gp/aw/d/B08N5WRWNW/ref=ox_sc_act_image_1?smid=x", "B08N5WRWNW", "www.amazon.co.uk"},
		{"https://www.amazon.com:443/dp/B08N5WRWNW", "B08N5WRWNW", "www.amazon.com"},
		{"http://www.amazon.com:80/dp/B08N5WRWNW", "B08N5WRWNW", "www.amazon.com"},
		{"https://www.amazon.com/gp/aw/d/B08N5WRWNW/", "B08N5WRWNW", "www.amazon.com"},
	}
	for _, c := range accepted {
		p, err := Parse(c.raw)
		if err != nil || p.ASIN != c.asin || p.Host != c.host {
			t.Errorf("Parse(%q) = %+v, %v; want %s on %s", c.raw, p, err, c.asin, c.host)
		}
	}

	refused := []string{
		"",
		"   ",
		"B08N5WRWNW",
		"www.amazon.com/dp/B08N5WRWNW",              // no scheme
		"//www.amazon.com/dp/B08N5WRWNW",            // no scheme
		"ftp://www.amazon.com/dp/B08N5WRWNW",        // not http(s)
		"https:www.amazon.com/dp/B08N5WRWNW",        // opaque
		"https://www.amazon.com",                    // no product
		"https://www.amazon.com/",                   // no product
		"https://www.amazon.com/s?k=macbook",        // a search
		"https://www.amazon.com/dp/",                // no ASIN
		"https://www.amazon.com/dp/B08N5WRWN",       // 9 characters
		"https://www.amazon.com/dp/B08N5WRWNWX",     // 11 characters
		"https://www.amazon.com/dp/B08N5-RWNW",      // not alphanumeric
		"https://www.amazon.com/dp/B08N5WRWſ",       // non-ASCII that uppercases to ASCII
		"https://www.amazon.com/a/b/dp/B08N5WRWNW",  // two slugs
		"https://www.amazon.com/gp/B08N5WRWNW",      // gp without product
		"https://www.amazon.com/exec/obidos/ASIN/",  // no ASIN
		"https://www.amazon.com/o/ASIN",             // no ASIN
		"https://www.amazon.com:8443/dp/B08N5WRWNW", // a port
		"http://www.amazon.com:443/dp/B08N5WRWNW",   // another scheme's port
		"https://www.amazon.com/-/dp/B08N5WRWNW",    // a language marker without a language
		"https://mm.amazon.com/dp/B08N5WRWNW",
		"https://user@www.amazon.com/dp/B08N5WRWNW", // credentials
		"https://amazon.com@evil.example/dp/B08N5WRWNW",
		"https://www.amazon.evil.example/dp/B08N5WRWNW",
		"https://amazon.com.evil.example/dp/B08N5WRWNW",
		"https://evil-amazon.com/dp/B08N5WRWNW",
		"https://www.www.amazon.com/dp/B08N5WRWNW",
		"https://aws.amazon.com/dp/B08N5WRWNW",
		"https://www.amazon.xyz/dp/B08N5WRWNW",
		"https://www.ebay.com/itm/B08N5WRWNW",
		"https://www.amazon.com/dp/B08N5WRWNW" + strings.Repeat("x", maxURLLength),
		"https://www.amazon.com/%zz/dp/B08N5WRWNW", // malformed escape
	}
	for _, raw := range refused {
		if p, err := Parse(raw); !errors.Is(err, ErrNotProductURL) {
			t.Errorf("Parse(%q) = %+v, %v; want ErrNotProductURL", raw, p, err)
		}
	}
}

func TestParseShortLinks(t *testing.T) {
	for _, raw := range []string{"https://a.co/d/5FxY3Kz", "https://amzn.to/3xYzAbC", "http://amzn.eu/d/abc", "https://A.CO./d/x"} {
		if _, err := Parse(raw); !errors.Is(err, ErrShortLink) || !errors.Is(err, ErrNotProductURL) {
			t.Errorf("Parse(%q) = %v, want ErrShortLink", raw, err)
		}
	}
	if _, err := Parse("https://www.ebay.com/itm/B08N5WRWNW"); errors.Is(err, ErrShortLink) {
		t.Error("an eBay URL is called a short link")
	}
}

func TestProductURL(t *testing.T) {
	p, err := Parse("http://smile.amazon.de/Some-Name/dp/b08n5wrwnw/ref=x?tag=aff-21")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.URL(); got != "https://www.amazon.de/dp/B08N5WRWNW" {
		t.Fatalf("URL() = %s", got)
	}
}

// FuzzParse checks that an accepted address always gives a
// well-formed ASIN on a known marketplace, and that the canonical URL reads
// back as the same product.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"https://www.amazon.com/dp/B08N5WRWNW",
		"https://www.amazon.co.uk/Name/dp/B08N5WRWNW/ref=x?y=z",
		"https://www.amazon.com/gp/product/0140449264",
		"https://www.amazon.com/exec/obidos/ASIN/0140449264/",
		"https://smile.amazon.de/o/ASIN/B08N5WRWNW",
		"https://www.amazon.com/gp/aw/d/B08N5WRWNW",
		"https://amazon.com@evil.example/dp/B08N5WRWNW",
		"not a url",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		p, err := Parse(raw)
		if err != nil {
			if !errors.Is(err, ErrNotProductURL) || p != (Product{}) {
				t.Fatalf("refusal of %q = %+v, %v", raw, p, err)
			}
			return
		}
		if _, ok := asin(p.ASIN); !ok || strings.ToUpper(p.ASIN) != p.ASIN {
			t.Fatalf("%q gave ASIN %q", raw, p.ASIN)
		}
		if h, ok := marketplaceHost(p.Host); !ok || h != p.Host {
			t.Fatalf("%q gave host %q", raw, p.Host)
		}
		again, err := Parse(p.URL())
		if err != nil || again != p {
			t.Fatalf("%q: canonical %s reads back as %+v, %v", raw, p.URL(), again, err)
		}
	})
}
