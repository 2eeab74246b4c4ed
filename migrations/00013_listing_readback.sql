-- +goose NO TRANSACTION
-- +goose Up
-- The desktop API reads listing requests back from the ledger itself
-- (GET /v1/listings, /v1/listings/{id}, ?idempotencyKey=), so a client can
-- learn whether a request whose answer it lost was charged, even after its
-- Idempotency-Key left the replay window. Partial indexes over the
-- ListingRequested events only, built concurrently: every spend appends to
-- events, and a plain CREATE INDEX would hold those appends while it runs.
-- A concurrent build that fails (or a process killed during it) leaves an
-- invalid index behind, which IF NOT EXISTS would keep: each is dropped
-- first, so the migration's rerun builds it whole.
DROP INDEX CONCURRENTLY IF EXISTS events_listings;
CREATE INDEX CONCURRENTLY events_listings ON events (stream_id, stream_version)
    WHERE event_type = 'ListingRequested';
DROP INDEX CONCURRENTLY IF EXISTS events_listing_ids;
CREATE INDEX CONCURRENTLY events_listing_ids ON events ((data->>'listingId'))
    WHERE event_type = 'ListingRequested';
DROP INDEX CONCURRENTLY IF EXISTS events_listing_keys;
CREATE INDEX CONCURRENTLY events_listing_keys ON events (stream_id, (metadata->>'idempotencyKey'))
    WHERE event_type = 'ListingRequested' AND metadata ? 'idempotencyKey';

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS events_listing_keys;
DROP INDEX CONCURRENTLY IF EXISTS events_listing_ids;
DROP INDEX CONCURRENTLY IF EXISTS events_listings;
