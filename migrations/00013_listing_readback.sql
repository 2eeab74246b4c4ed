-- +goose NO TRANSACTION
-- +goose Up
-- The desktop API reads listing requests back from the ledger itself
-- (GET /v1/listings, /v1/listings/{id}, ?idempotencyKey=), so a client can
-- learn whether a request whose answer it lost was charged, even after its
-- Idempotency-Key left the replay window. Partial indexes over the
-- ListingRequested events only, built concurrently: every spend appends to
-- events, and a plain CREATE INDEX would hold those appends while it runs.
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_listings ON events (stream_id, global_position)
    WHERE event_type = 'ListingRequested';
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_listing_ids ON events ((data->>'listingId'))
    WHERE event_type = 'ListingRequested';
CREATE INDEX CONCURRENTLY IF NOT EXISTS events_listing_keys ON events (stream_id, (metadata->>'idempotencyKey'))
    WHERE event_type = 'ListingRequested' AND metadata ? 'idempotencyKey';

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS events_listing_keys;
DROP INDEX CONCURRENTLY IF EXISTS events_listing_ids;
DROP INDEX CONCURRENTLY IF EXISTS events_listings;
