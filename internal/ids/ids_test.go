package ids

import "testing"

func TestCanonical(t *testing.T) {
	const id = "0b5a4c1e-8f3d-4c2a-9e71-3d5f6a7b8c9d"
	for in, want := range map[string]bool{
		id:                                      true,
		"0B5A4C1E-8F3D-4C2A-9E71-3D5F6A7B8C9D":  true,
		"urn:uuid:" + id:                        false,
		"{" + id + "}":                          false,
		"0b5a4c1e8f3d4c2a9e713d5f6a7b8c9d":      false,
		"":                                      false,
		"0b5a4c1e-8f3d-4c2a-9e71-3d5f6a7b8c9":   false,
		"0b5a4c1e-8f3d-4c2a-9e71-3d5f6a7b8c9dx": false,
		"0b5a4c1e+8f3d-4c2a-9e71-3d5f6a7b8c9d":  false,
	} {
		got, ok := Canonical(in)
		if ok != want || (ok && got != id) {
			t.Errorf("Canonical(%q) = %q, %v; want ok %v", in, got, ok, want)
		}
	}
}
