package vero

import (
	"context"
	"strings"
	"testing"

	"github.com/a2e-automation/app/internal/testing/testdb"
)

func TestKey(t *testing.T) {
	for in, want := range map[string]string{
		"Nike":                    "nike",
		"  NIKE  ":                "nike",
		"Louis   Vuitton":         "louis vuitton",
		"\tThe North\u00a0Face\n": "the north face",
		"Hermès":                  "hermès",
		"":                        "",
	} {
		if got := Key(in); got != want {
			t.Errorf("Key(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Clean("  Louis \t Vuitton "); got != "Louis Vuitton" {
		t.Errorf("Clean = %q", got)
	}
}

func TestParseList(t *testing.T) {
	got, err := ParseList("# comment\n\nNike\n  Louis   Vuitton  \r\n#another\nLEGO\n")
	if err != nil || strings.Join(got, "|") != "Nike|Louis Vuitton|LEGO" {
		t.Fatalf("ParseList = %q, %v", got, err)
	}
	if _, err := ParseList("Nike\nAdidas\n NIKE\n"); err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Fatalf("a repeated brand: %v", err)
	}
}

func TestShippedList(t *testing.T) {
	brands, err := ParseList(brandList)
	if err != nil {
		t.Fatal(err)
	}
	if len(brands) < 50 {
		t.Fatalf("brands.txt has %d brands, want about 50", len(brands))
	}
	for _, b := range brands {
		if len([]rune(b)) > 100 {
			t.Errorf("brand %q is longer than a check accepts", b)
		}
	}
}

func TestSeedAndIsProtected(t *testing.T) {
	ctx := context.Background()
	pool := testdb.New(t)
	n, err := Seed(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	brands, _ := ParseList(brandList)
	if n != int64(len(brands)) {
		t.Fatalf("first seed inserted %d rows, want %d", n, len(brands))
	}
	// A row added by hand survives seeding, and seeding again adds nothing.
	if _, err := pool.Exec(ctx, `INSERT INTO vero_brands (brand_key, brand) VALUES ('acme widgets', 'Acme Widgets')`); err != nil {
		t.Fatal(err)
	}
	if n, err := Seed(ctx, pool); err != nil || n != 0 {
		t.Fatalf("second seed = %d, %v; want 0", n, err)
	}
	for brand, want := range map[string]bool{
		"Nike":              true,
		"  nike ":           true,
		"LOUIS  VUITTON":    true,
		"tiffany & co.":     true,
		"Acme   widgets":    true,
		"Nikes":             false,
		"Generic Unbranded": false,
		"":                  false,
	} {
		got, err := IsProtected(ctx, pool, brand)
		if err != nil || got != want {
			t.Errorf("IsProtected(%q) = %v, %v; want %v", brand, got, err, want)
		}
	}
}
