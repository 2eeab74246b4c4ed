package projections

import (
	"testing"

	"github.com/a2e-automation/app/domain"
)

// usage_daily's fold: spends, listings and checks count; a refund's
// revocation counts what it took back (off the balance and owed); a lost
// dispute's revocation and grants count nothing.
func TestUsageDayFold(t *testing.T) {
	var sum dayRow
	for _, ev := range []domain.Event{
		domain.CreditsSpent{Amount: 2}, domain.ListingRequested{}, domain.CreditsSpent{Amount: 1}, domain.VeroCheckPerformed{},
		domain.CreditsGranted{Amount: 5},
		domain.CreditsRevoked{Amount: 4, Debt: 3, Share: 10, Reason: domain.RevokedForRefund},
		domain.CreditsRevoked{Amount: 6, Debt: 1, Share: 10, Reason: domain.RevokedForDisputeLost},
	} {
		add, err := usageDayOf(ev)
		if err != nil {
			t.Fatal(err)
		}
		sum = sum.plus(add)
	}
	if want := (dayRow{credits: 3, listings: 1, vero: 1, refunded: 7}); sum != want {
		t.Fatalf("usage day = %+v, want %+v", sum, want)
	}
}
