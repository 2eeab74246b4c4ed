package main

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// The answers are counted by class for the 5xx-rate alert
// (deploy/prometheus/alerts.yml), and the database's own series are there
// (on a single server: no synchronous standby, no backup yet).
func TestMetricsCountAnswersAndReadTheDatabase(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t)
	for _, path := range []string{"/api/plans", "/api/plans", "/api/no-such-route"} {
		e.do(request{method: "GET", path: path})
	}
	rec := httptest.NewRecorder()
	promhttp.HandlerFor(e.deps.Registry, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	series := map[string]float64{}
	for _, line := range strings.Split(rec.Body.String(), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if v, err := strconv.ParseFloat(line[i+1:], 64); err == nil {
			series[line[:i]] = v
		}
	}
	want := map[string]float64{
		`http_responses_total{class="2xx"}`:        2,
		`http_responses_total{class="4xx"}`:        1,
		`http_responses_total{class="5xx"}`:        0,
		"db_metrics_up":                            1,
		"db_synchronous_standbys":                  0,
		"db_backup_last_success_timestamp_seconds": 0,
		"group_commit_seconds_total":               0,
	}
	if series["db_timeline_id"] < 1 {
		t.Errorf("db_timeline_id = %v", series["db_timeline_id"])
	}
	for name, v := range want {
		if got, ok := series[name]; !ok || got != v {
			t.Errorf("%s = %v (present %v), want %v", name, got, ok, v)
		}
	}
}
