package query

import (
	"context"
	"log/slog"
	"time"

	"github.com/a2e-automation/app/internal/staff"
)

// PositionWaiter waits until the projector has applied the log up to a
// position (projections.Projector).
type PositionWaiter interface {
	WaitFor(ctx context.Context, position int64, timeout time.Duration, names ...string) error
}

// StaffComparisonHandler compares an account's read tables with its
// ledger replayed.
type StaffComparisonHandler struct {
	staff     StaffConsole
	projector PositionWaiter
	log       *slog.Logger
}

// Handle compares what the projector has had the chance to apply: a
// difference is checked again once the projector has reached the ledger's
// position (bounded by ReadYourWrites).
func (h StaffComparisonHandler) Handle(ctx context.Context, id string) (staff.Comparison, error) {
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmp, err := h.staff.Compare(cctx, id)
	if err == nil && !cmp.Consistent {
		if err := h.projector.WaitFor(ctx, cmp.Position, ReadYourWrites); err != nil {
			h.log.WarnContext(ctx, "read tables behind after a command", "position", cmp.Position, "err", err)
		}
		cmp, err = h.staff.Compare(cctx, id)
	}
	return cmp, err
}
