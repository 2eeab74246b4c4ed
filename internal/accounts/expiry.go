package accounts

import (
	"context"

	"github.com/a2e-automation/app/domain"
)

// DueAccounts returns up to limit accounts with a grant whose expiry has
// come by the repository's clock (command.ExpireCredits expires them).
func (r *Repository) DueAccounts(ctx context.Context, limit int) ([]string, error) {
	streams, err := r.store.DueStreams(ctx, r.Now(), limit)
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(streams))
	for _, s := range streams {
		if id, ok := domain.AccountIDFromStream(s); ok {
			ids = append(ids, id)
		}
	}
	return ids, nil
}
