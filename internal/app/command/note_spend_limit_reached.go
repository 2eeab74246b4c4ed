package command

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
)

// noteTimeout bounds the note of a limit's reach: it runs in the refused
// request, before its 402 is written.
const noteTimeout = 5 * time.Second

// A spend refused by a spend limit writes nothing: its decision's error
// rolls its transaction back (in a group commit, a write followed by a
// refusal would make the whole batch run again), and its idempotency key
// stays unused, so a retry after the limit is raised runs afresh. The
// limit's reach (domain.SpendLimitReached, the spend_limit.reached webhook)
// is therefore recorded by a command of its own, after the refused spend's
// transaction has ended: noteSpendLimitReached.
//
// It runs only for a refusal whose SpendLimitError says the reach is not
// recorded yet (Noted false), so once per period the refused spends cost
// one more transaction, and afterwards nothing. It decides again on the
// locked account (domain.Account.NoteSpendLimitReached): of concurrent
// refusals, the first to lock the stream records the event and the others
// find it recorded. A failure is logged and leaves the refusal's answer as
// it is; the next refusal of the period tries again.

// noteSpendLimitReached records the reach of the limit that refused err's
// spend when err is a SpendLimitError not yet noted; any other err is left
// alone.
func (sp spender) noteSpendLimitReached(ctx context.Context, s Spend, err error) {
	var limit *domain.SpendLimitError
	if !errors.As(err, &limit) || limit.Noted {
		return
	}
	// The refused call's key is not this command's: it stays unused, and
	// the event is not found under it.
	md := s.Metadata
	md.IdempotencyKey = ""
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), noteTimeout)
	defer cancel()
	_, nerr := sp.accounts.Change(ctx, s.AccountID, eventstore.UpdateOptions{Metadata: md},
		func(_ context.Context, _ accounts.Work, a *domain.Account, now time.Time) (any, error) {
			a.NoteSpendLimitReached(now)
			return nil, nil
		})
	if nerr != nil && sp.log != nil {
		sp.log.Warn("record a spend limit's reach", slog.String("account", s.AccountID),
			slog.String("period", limit.Period), slog.Any("error", nerr))
	}
}
