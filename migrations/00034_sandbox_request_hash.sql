-- +goose Up
-- Test mode compares an Idempotency-Key's request as live mode does (issue
-- 34): by the hash of the request (method, path and raw body), not by the
-- cleaned URL or brand, so the same key with another body is 422
-- idempotency_key_reused in both modes. Rows made before have no hash ('')
-- and refuse any reuse of their key.
ALTER TABLE sandbox_listings ADD COLUMN request_hash text NOT NULL DEFAULT '';
ALTER TABLE sandbox_vero_checks ADD COLUMN request_hash text NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE sandbox_vero_checks DROP COLUMN request_hash;
ALTER TABLE sandbox_listings DROP COLUMN request_hash;
