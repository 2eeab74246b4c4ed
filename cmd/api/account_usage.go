package main

import (
	"net/http"

	"github.com/a2e-automation/app/projections"
)

type usageRow struct {
	Metric    string `json:"metric"`
	Today     int64  `json:"today"`
	ThisWeek  int64  `json:"thisWeek"`
	ThisMonth int64  `json:"thisMonth"`
	Total     int64  `json:"total"`
}

type usageResponse struct {
	CreditsUsed int64      `json:"creditsUsed"` // this month
	Rows        []usageRow `json:"rows"`
}

// usageMetrics are the dashboard's usage table rows, in order.
var usageMetrics = []struct {
	name  string
	count func(projections.UsageCounts) int64
}{
	{"Credits used", func(c projections.UsageCounts) int64 { return c.CreditsUsed }},
	{"Listings created", func(c projections.UsageCounts) int64 { return c.ListingsCreated }},
	{"VeRO checks", func(c projections.UsageCounts) int64 { return c.VeroChecks }},
}

// handleUsageStatistics answers the signed-in account's usage today, this
// week (from Monday), this month and in total, in UTC days.
func handleUsageStatistics(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		u, err := d.App.Queries.Usage.Handle(r.Context(), currentSession(r.Context()).AccountID)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		res := usageResponse{CreditsUsed: u.ThisMonth.CreditsUsed}
		for _, m := range usageMetrics {
			res.Rows = append(res.Rows, usageRow{
				Metric: m.name, Today: m.count(u.Today), ThisWeek: m.count(u.ThisWeek), ThisMonth: m.count(u.ThisMonth), Total: m.count(u.Total),
			})
		}
		encode(w, http.StatusOK, res)
	}
}
