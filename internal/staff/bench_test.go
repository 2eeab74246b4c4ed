package staff_test

import (
	"context"
	"testing"

	"github.com/a2e-automation/app/domain"
	"github.com/a2e-automation/app/eventstore"
	"github.com/a2e-automation/app/internal/accounts"
	"github.com/a2e-automation/app/internal/staff"
	"github.com/a2e-automation/app/internal/testing/accountstest"
	"github.com/a2e-automation/app/internal/testing/testdb"
)

// BenchmarkHistoryPage pages through the history of an account with 100,000
// events, 50 events a page, walking the cursor from the first page to the
// last (ms/page is the figure to watch: a page must not cost more near the
// end of a long stream).
func BenchmarkHistoryPage(b *testing.B) {
	repo := accounts.NewRepository(eventstore.New(testdb.New(b)), nil)
	id := accountstest.Register(b, repo)
	accountstest.Do(b, repo, id, accountstest.Grant(1_000_000, domain.SourcePurchase, nil))
	accountstest.FillHistory(b, repo, id, 100_000)
	h := staff.NewHistory(repo.Store(), "bench secret")
	ctx := context.Background()
	cursor, pages := "", 0
	b.ResetTimer()
	for b.Loop() {
		page, err := h.Page(ctx, id, nil, cursor, 50)
		if err != nil {
			b.Fatal(err)
		}
		pages++
		cursor = page.NextCursor // wraps to the first page after the last
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(pages), "ms/page")
}
