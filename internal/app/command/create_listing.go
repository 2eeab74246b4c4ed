package command

import (
	"context"
	"time"

	"github.com/a2e-automation/app/eventstore"
	"github.com/google/uuid"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/internal/amazonurl"
	"github.com/a2e-automation/app/internal/listings"
)

// CreateListing is a paid request to copy an Amazon product to eBay.
type CreateListing struct {
	Spend
	Product amazonurl.Product
}

// Listing is CreateListing's answer (Metered.Body), the desktop API's
// JSON as it is kept for a retry.
type Listing struct {
	ID               string    `json:"id"`
	ASIN             string    `json:"asin"`
	AmazonURL        string    `json:"amazonUrl"` // canonical: https://<marketplace>/dp/<asin>
	Status           string    `json:"status"`
	CreditsRemaining int64     `json:"creditsRemaining"`
	CreatedAt        time.Time `json:"createdAt"`
}

// CreateListingHandler charges a credit for a listing request.
type CreateListingHandler struct {
	spender
}

// Handle charges 1 credit and records the queued listing request; the
// domain refuses an account without credits.
func (h CreateListingHandler) Handle(ctx context.Context, cmd CreateListing) (Metered, error) {
	id, p := uuid.NewString(), cmd.Product
	return h.spend(ctx, cmd.Spend, func(_ context.Context, _ eventstore.Querier, a *domain.Account, now time.Time) (any, error) {
		if err := a.RequestListing(id, p.ASIN, p.URL(), now); err != nil {
			return nil, err
		}
		// PostgreSQL keeps the event's time to the microsecond.
		return Listing{ID: id, ASIN: p.ASIN, AmazonURL: p.URL(), Status: listings.StatusQueued,
			CreditsRemaining: a.Balance(now), CreatedAt: now.Truncate(time.Microsecond)}, nil
	})
}
