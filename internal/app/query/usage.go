package query

import (
	"context"
	"time"

	"github.com/a2e-automation/app/projections"
)

// UsageReader counts an account's usage (projections.Reader).
type UsageReader interface {
	Usage(ctx context.Context, accountID string, now time.Time) (projections.Usage, error)
}

// UsageHandler reads the dashboard's usage statistics.
type UsageHandler struct{ usage UsageReader }

// Handle is accountID's usage today, this week (from Monday), this month
// and in total, in UTC days.
func (h UsageHandler) Handle(ctx context.Context, accountID string) (projections.Usage, error) {
	return h.usage.Usage(ctx, accountID, time.Now())
}
