package config

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Load reads the environment through the declarations alone: every name it
// asks getenv for is declared once in variables, and every declared name is
// read.
func TestLoadReadsExactlyTheDeclaredVariables(t *testing.T) {
	var asked []string
	_, _ = Load(func(k string) string {
		asked = append(asked, k)
		return map[string]string{"APP_ENV": Development}[k]
	})
	var declared []string
	for _, v := range variables {
		if slices.Contains(declared, v.Name) {
			t.Errorf("%s is declared twice", v.Name)
		}
		declared = append(declared, v.Name)
	}
	slices.Sort(asked)
	slices.Sort(declared)
	if !slices.Equal(slices.Compact(asked), declared) {
		t.Fatalf("Load asked for %v, the declarations are %v", asked, declared)
	}
}

// readmeRow is a row of the README's configuration table: | `NAME` | default | meaning |.
var readmeRow = regexp.MustCompile("(?m)^\\| `([A-Z0-9_]+)` \\|([^|]*)\\|")

// The README's configuration table lists every declared variable, with the
// declared default where there is one literal default.
func TestREADMEListsEveryVariable(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, m := range readmeRow.FindAllStringSubmatch(string(readme), -1) {
		rows[m[1]] = strings.TrimSpace(m[2])
	}
	for _, v := range variables {
		def, ok := rows[v.Name]
		switch {
		case !ok:
			t.Errorf("README's configuration table has no row for %s", v.Name)
		case v.Default != "" && def != "`"+v.Default+"`":
			t.Errorf("README gives %s the default %s; it is `%s`", v.Name, def, v.Default)
		}
	}
}
