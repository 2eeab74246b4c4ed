-- +goose NO TRANSACTION
-- +goose Up
-- The retention pruner removes desktop idempotency keys by age. Built
-- concurrently: every keyed spend inserts into this table, and a plain
-- CREATE INDEX would hold those inserts for as long as it runs.
CREATE INDEX CONCURRENTLY IF NOT EXISTS idempotency_keys_created_at ON idempotency_keys (created_at);

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS idempotency_keys_created_at;
