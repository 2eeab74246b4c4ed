-- +goose Up
-- Limits found missing from outside (issue 25).
--
-- One checkout at a time per account and kind (issue 25): a checkout's
-- reservation is claimed while its provider call runs (claimed_at), so a
-- second attempt waits for it instead of making a second subscription or
-- PaymentIntent, and records the checkout it made (intent_id), so a later
-- attempt while that checkout is still unpaid answers it again. A claim
-- older than a minute is a crashed attempt's: the next attempt takes it
-- over with the same idempotency key.
ALTER TABLE provider_requests
    ADD COLUMN claimed_at timestamptz,
    ADD COLUMN intent_id  text;
CREATE INDEX provider_requests_checkouts ON provider_requests (account_id, action, credits, target, created_at DESC)
    WHERE status IN ('reserved', 'done') AND action IN ('subscription', 'credits');

-- Support requests per account and time, counted when one is sent.
CREATE INDEX support_requests_account ON support_requests (account_id, created_at);

-- +goose Down
DROP INDEX support_requests_account;
DROP INDEX provider_requests_checkouts;
ALTER TABLE provider_requests
    DROP COLUMN intent_id,
    DROP COLUMN claimed_at;
