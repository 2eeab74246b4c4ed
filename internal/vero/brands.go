package vero

import _ "embed"

// brandList is brands.txt: the VeRO protected brands the vero_brands table
// is seeded with, one per line.
//
//go:embed brands.txt
var brandList string
