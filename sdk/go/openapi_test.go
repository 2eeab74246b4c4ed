package a2e_test

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	a2e "github.com/a2e-automation/app/sdk/go"
)

// TestModelsMatchTheOpenAPIDocument: every field the document
// (cmd/api/openapi.json, served as GET /v1/openapi.json) gives a result is a
// field of its struct, under the API's JSON name, and no other JSON field is.
func TestModelsMatchTheOpenAPIDocument(t *testing.T) {
	b, err := os.ReadFile("../../cmd/api/openapi.json")
	if err != nil {
		t.Skipf("not in the repository: %v", err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]json.RawMessage `json:"properties"`
				Enum       []string                   `json:"enum"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		model   any
		schemas []string
	}{
		{a2e.Listing{}, []string{"Listing", "ListingRecord"}},
		{a2e.ListingPage{}, []string{"ListingPage"}},
		{a2e.Account{}, []string{"Account"}},
		{a2e.VeroCheck{}, []string{"VeroCheck"}},
	} {
		var documented []string
		for _, name := range m.schemas {
			for p := range doc.Components.Schemas[name].Properties {
				if !slices.Contains(documented, p) {
					documented = append(documented, p)
				}
			}
		}
		var fields []string
		typ := reflect.TypeOf(m.model)
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			if name != "-" && name != "" {
				fields = append(fields, name)
			}
		}
		sort.Strings(documented)
		sort.Strings(fields)
		if !slices.Equal(documented, fields) {
			t.Errorf("%s's JSON fields %v, the document's %v", typ.Name(), fields, documented)
		}
	}
	codes := doc.Components.Schemas["ErrorCode"].Enum
	for _, code := range a2e.BranchedCodes {
		if !slices.Contains(codes, code) {
			t.Errorf("the SDK branches on %q, which the document's ErrorCode does not name", code)
		}
	}
}
