-- +goose Up
-- Test mode's VeRO checks (issue 34, item 2): a POST /v1/vero-checks with an
-- a2e_test_ key takes a test credit from sandbox_balances, never a real
-- one; each check is kept here so its Idempotency-Key replays it.
CREATE TABLE sandbox_vero_checks (
    id              uuid        PRIMARY KEY,
    account_id      uuid        NOT NULL REFERENCES users ON DELETE CASCADE,
    key_id          text        NOT NULL,
    brand           text        NOT NULL,
    protected       boolean     NOT NULL,
    idempotency_key text,
    credits_after   bigint      NOT NULL, -- the test credits left after it, its answer's creditsRemaining
    created_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (account_id, idempotency_key)
);

-- +goose Down
DROP TABLE sandbox_vero_checks;
