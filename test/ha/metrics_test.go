package ha_test

import (
	"bufio"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/a2e-automation/app/internal/testing/systest"
)

// scrape reads a /metrics page: each series' name (labels dropped) to the
// sum of its values.
func scrape(t *testing.T, addr string) map[string]float64 {
	t.Helper()
	c := &http.Client{Timeout: 10 * time.Second}
	res, err := c.Get("http://" + addr + "/metrics")
	if err != nil {
		t.Fatalf("scrape %s: %v", addr, err)
	}
	defer res.Body.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		name := line[:i]
		if j := strings.IndexByte(name, '{'); j >= 0 {
			name = name[:j]
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err == nil {
			out[name] += v
		}
	}
	return out
}

var (
	exprLine    = regexp.MustCompile(`^(\s*)expr:\s*(.*)$`)
	inBraces    = regexp.MustCompile(`\{[^}]*\}|\[[^\]]*\]|\b(by|without|on|ignoring)\s*\([^)]*\)`)
	identifier  = regexp.MustCompile(`[a-zA-Z_:][a-zA-Z0-9_:]*(\s*\()?`)
	promqlWords = map[string]bool{"and": true, "or": true, "unless": true, "bool": true, "offset": true}
)

// ruleMetrics are the metric names deploy/prometheus/alerts.yml's
// expressions use.
func ruleMetrics(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(systest.Root(t), "deploy", "prometheus", "alerts.yml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var exprs []string
	sc := bufio.NewScanner(f)
	block := -1 // the indentation of a `expr: |` block's key, while in it
	for sc.Scan() {
		line := sc.Text()
		if block >= 0 {
			if strings.TrimSpace(line) != "" && len(line)-len(strings.TrimLeft(line, " ")) > block {
				exprs = append(exprs, line)
				continue
			}
			block = -1
		}
		if m := exprLine.FindStringSubmatch(line); m != nil {
			if strings.TrimSpace(m[2]) == "|" {
				block = len(m[1])
			} else {
				exprs = append(exprs, m[2])
			}
		}
	}
	seen := map[string]bool{}
	var names []string
	for _, e := range exprs {
		for _, tok := range identifier.FindAllString(inBraces.ReplaceAllString(e, " "), -1) {
			if strings.HasSuffix(tok, "(") || promqlWords[tok] || !strings.Contains(tok, "_") || seen[tok] {
				continue
			}
			seen[tok] = true
			names = append(names, tok)
		}
	}
	if len(names) < 8 {
		t.Fatalf("found only %v in alerts.yml's expressions", names)
	}
	return names
}

// requireRuleMetrics fails unless every metric the alert rules use is on
// one of the /metrics pages.
func requireRuleMetrics(t *testing.T, pages ...map[string]float64) {
	t.Helper()
	for _, name := range ruleMetrics(t) {
		found := false
		for _, p := range pages {
			if _, ok := p[name]; ok {
				found = true
			}
		}
		if !found {
			t.Errorf("alerts.yml uses %s, which no /metrics page has", name)
		}
	}
}
