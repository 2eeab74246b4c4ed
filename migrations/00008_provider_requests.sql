-- +goose Up
-- Calls to the payment provider that create or change something, reserved
-- before the call with the idempotency key the call carries. The call runs
-- with no transaction open; its result is recorded in a second short one
-- (status done). A call that got no answer stays reserved, and the seller's
-- next attempt at the same action reuses its key, so Stripe answers with
-- the object it already made instead of making a second one.
CREATE TABLE provider_requests (
    idempotency_key text        PRIMARY KEY,
    account_id      uuid        NOT NULL REFERENCES users ON DELETE CASCADE,
    action          text        NOT NULL CHECK (action IN ('subscription', 'credits', 'cancel')),
    credits         bigint      NOT NULL DEFAULT 0,
    target          text        NOT NULL DEFAULT '', -- what the call is about: the price, amount or subscription
    status          text        NOT NULL DEFAULT 'reserved' CHECK (status IN ('reserved', 'done', 'refused')),
    created_at      timestamptz NOT NULL,
    settled_at      timestamptz
);
CREATE INDEX provider_requests_reserved ON provider_requests (account_id, action, credits, target, created_at) WHERE status = 'reserved';

-- +goose Down
DROP TABLE provider_requests;
