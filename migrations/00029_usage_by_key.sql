-- +goose Up
-- Issue 35 item 5 and issue 34 item 1: usage per UTC day and API key, for
-- GET /api/usage/daily?key=ID and its CSV. The usage_daily projection keeps
-- it beside usage_daily (projections/usage_daily.go) from the spends, which
-- name the key they were made with (CreditsSpent.keyId): credits, listings
-- and VeRO checks. Refunds are not a key's (a payment is not made with one),
-- so a key's days have no refunded column.
CREATE TABLE usage_daily_keys (
    account_id  uuid   NOT NULL,
    key_id      text   NOT NULL,
    day         date   NOT NULL,
    credits     bigint NOT NULL DEFAULT 0,
    listings    bigint NOT NULL DEFAULT 0,
    vero_checks bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, key_id, day)
);

-- +goose Down
DROP TABLE usage_daily_keys;
