// Package data holds the data files the binaries embed.
package data

import _ "embed"

// VeroBrands is vero-brands.txt: the VeRO protected brands the vero_brands
// table is seeded with, one per line.
//
//go:embed vero-brands.txt
var VeroBrands string
