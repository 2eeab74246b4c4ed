package main

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/app/command"
)

// spendLimitsRequest is PUT /api/account/spend-limits: both limits as they
// are to stand; null (or absent) is no limit.
type spendLimitsRequest struct {
	DailyCredits   *int64 `json:"dailyCredits"`
	MonthlyCredits *int64 `json:"monthlyCredits"`
}

func (q *spendLimitsRequest) Valid(context.Context) map[string]string {
	problems := map[string]string{}
	if msg := domain.CheckSpendLimit(q.DailyCredits); msg != "" {
		problems["dailyCredits"] = "dailyCredits " + msg
	}
	if msg := domain.CheckSpendLimit(q.MonthlyCredits); msg != "" {
		problems["monthlyCredits"] = "monthlyCredits " + msg
	}
	return problems
}

// spendLimitsResponse is the limits, what their periods spent so far, when
// the periods end (RFC 3339), and whether each limit is reached.
type spendLimitsResponse struct {
	DailyCredits        *int64 `json:"dailyCredits"`
	MonthlyCredits      *int64 `json:"monthlyCredits"`
	SpentToday          int64  `json:"spentToday"`
	SpentThisMonth      int64  `json:"spentThisMonth"`
	DailyResetsAt       string `json:"dailyResetsAt"`
	MonthlyResetsAt     string `json:"monthlyResetsAt"`
	DailyLimitReached   bool   `json:"dailyLimitReached"`
	MonthlyLimitReached bool   `json:"monthlyLimitReached"`
}

func spendLimitsOf(v domain.SpendLimits) spendLimitsResponse {
	return spendLimitsResponse{
		DailyCredits: v.Daily, MonthlyCredits: v.Monthly, SpentToday: v.SpentToday, SpentThisMonth: v.SpentThisMonth,
		DailyResetsAt: v.DayResetsAt.UTC().Format(time.RFC3339), MonthlyResetsAt: v.MonthResetsAt.UTC().Format(time.RFC3339),
		DailyLimitReached: v.DailyReached(), MonthlyLimitReached: v.MonthlyReached(),
	}
}

// handleGetSpendLimits answers GET /api/account/spend-limits.
func handleGetSpendLimits(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v, err := d.App.Queries.SpendLimits.Handle(r.Context(), currentSession(r.Context()).AccountID)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, spendLimitsOf(v))
	}
}

// handlePutSpendLimits answers PUT /api/account/spend-limits: a limit out of
// range, not a whole number, or set on an unverified account is a 400 naming
// the field.
func handlePutSpendLimits(d Deps) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		req, err := decode[spendLimitsRequest](r)
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		id := currentSession(r.Context()).AccountID
		v, err := d.App.Commands.SetSpendLimits.Handle(r.Context(), command.SetSpendLimits{
			AccountID: id, Daily: req.DailyCredits, Monthly: req.MonthlyCredits, Metadata: metadata(r, "account:"+id),
		})
		if errors.Is(err, domain.ErrSpendLimitsUnverified) {
			err = invalid(unverifiedLimitFields(req, domain.ErrorMessage(err)))
		}
		if err != nil {
			writeError(w, r, d.Log, err)
			return
		}
		encode(w, http.StatusOK, spendLimitsOf(v))
	}
}

// unverifiedLimitFields names the limits an unverified account tried to set
// (both when it set none).
func unverifiedLimitFields(req spendLimitsRequest, msg string) map[string]string {
	fields := map[string]string{}
	if req.DailyCredits != nil {
		fields["dailyCredits"] = msg
	}
	if req.MonthlyCredits != nil {
		fields["monthlyCredits"] = msg
	}
	if len(fields) == 0 {
		fields["dailyCredits"], fields["monthlyCredits"] = msg, msg
	}
	return fields
}

// spendLimitBody is what a spend_limit_reached answer adds to the error
// body: which limit, its credits, what its period spent, and when it resets.
type spendLimitBody struct {
	Period   string `json:"period"`
	Limit    int64  `json:"limit"`
	Spent    int64  `json:"spent"`
	ResetsAt string `json:"resetsAt"`
}

// spendLimitOf is err's spendLimitBody, nil when err is no spend limit refusal.
func spendLimitOf(err error) *spendLimitBody {
	le, ok := errors.AsType[*domain.SpendLimitError](err)
	if !ok {
		return nil
	}
	return &spendLimitBody{Period: le.Period, Limit: le.Limit, Spent: le.Spent, ResetsAt: le.ResetsAt.UTC().Format(time.RFC3339)}
}
