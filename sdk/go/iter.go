package a2e

import "context"

// ListingIter walks all the account's listings, newest first, fetching the
// next page (following NextCursor) when the current one is used up, as
// Stripe's list iterators do:
//
//	it := c.Listings.ListAll(ctx, a2e.ListListingsParams{Limit: 100})
//	for it.Next() {
//		l := it.Listing()
//	}
//	if err := it.Err(); err != nil { ... }
//
// Each page is one GET, retried as any read. It is not safe for concurrent use.
type ListingIter struct {
	ctx    context.Context
	s      *ListingsService
	params ListListingsParams
	page   *ListingPage
	i      int
	cur    *Listing
	err    error
}

// ListAll is an iterator over every listing List would page through from
// p (its Cursor, if any, is where it starts; p.Limit is the page size).
func (s *ListingsService) ListAll(ctx context.Context, p ListListingsParams) *ListingIter {
	return &ListingIter{ctx: ctx, s: s, params: p}
}

// Next moves to the next listing, fetching a page when needed; false at
// the end or on an error (see Err).
func (it *ListingIter) Next() bool {
	for it.err == nil {
		if it.page != nil && it.i < len(it.page.Data) {
			it.cur = &it.page.Data[it.i]
			it.i++
			return true
		}
		if it.page != nil && it.page.NextCursor == "" {
			break
		}
		if it.page != nil {
			it.params.Cursor = it.page.NextCursor
		}
		it.page, it.err = it.s.List(it.ctx, it.params)
		it.i = 0
	}
	it.cur = nil
	return false
}

// Listing is the listing Next moved to.
func (it *ListingIter) Listing() *Listing { return it.cur }

// Page is the page the current listing came from (nil before the first
// Next); its RateLimit is the one of the last page fetched.
func (it *ListingIter) Page() *ListingPage { return it.page }

// Err is the error that stopped the iteration, or nil.
func (it *ListingIter) Err() error { return it.err }
