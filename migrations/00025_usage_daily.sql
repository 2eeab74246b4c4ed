-- +goose Up
-- Issue 35, item 5: usage per UTC day for GET /api/usage/daily and its CSV.
-- The usage_daily projection keeps it (projections/usage_daily.go): one row
-- per account and day that had usage; days without a row are filled with
-- zeros by the query (internal/app/query/usage_daily.go). refunded: credits
-- taken back that day because a payment was refunded (CreditsRevoked with
-- reason refund: what came off the balance plus what became debt).
-- The version is 00025, not the next free one, so it does not collide with
-- migrations other issues add at the same time (goose allows gaps).
CREATE TABLE usage_daily (
    account_id  uuid   NOT NULL,
    day         date   NOT NULL,
    credits     bigint NOT NULL DEFAULT 0,
    listings    bigint NOT NULL DEFAULT 0,
    vero_checks bigint NOT NULL DEFAULT 0,
    refunded    bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, day)
);

-- +goose Down
DROP TABLE usage_daily;
