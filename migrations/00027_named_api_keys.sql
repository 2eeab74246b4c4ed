-- +goose Up
-- Issue 34: several named keys per account. api_keys holds every key that
-- works (or works until its rotation's grace ends, retires_at), written in
-- the transaction of the key's event (auth.ApplyKeyEvents); a revoked or
-- expired key's row is deleted with its event. is_primary marks the
-- account's "Default" key, the profile's apiKey. encrypted lets the API
-- Keys page show a key again, as it shows the Default key. The version is
-- 00027 as the issue's brief asks (goose allows gaps).
ALTER TABLE api_keys DROP CONSTRAINT api_keys_account_id_key;
ALTER TABLE api_keys
    ADD COLUMN name       text        NOT NULL DEFAULT 'Default',
    ADD COLUMN mode       text        NOT NULL DEFAULT 'live',
    ADD COLUMN prefix     text        NOT NULL DEFAULT '',
    ADD COLUMN encrypted  text        NOT NULL DEFAULT '',
    ADD COLUMN is_primary boolean     NOT NULL DEFAULT false,
    ADD COLUMN expires_at timestamptz,
    ADD COLUMN retires_at timestamptz,
    ADD COLUMN last_used_at timestamptz;
UPDATE api_keys SET is_primary = true;
UPDATE api_keys k SET prefix = p.api_key_prefix, encrypted = p.api_key_encrypted
  FROM profiles p WHERE p.account_id = k.account_id;
CREATE UNIQUE INDEX api_keys_primary ON api_keys (account_id) WHERE is_primary;
CREATE INDEX api_keys_account ON api_keys (account_id);
-- The expiry sweeper's scan: keys that stop working on their own.
CREATE INDEX api_keys_due ON api_keys (least(expires_at, retires_at))
    WHERE expires_at IS NOT NULL OR retires_at IS NOT NULL;

-- Test mode (issue 34, item 2): each account's sandbox, spent by its
-- a2e_test_ keys only (internal/sandbox). Test credits are not money: they
-- are no event of the account's stream and touch no balance, usage or
-- billing table. A sandbox row is made at 1,000 on first use and reset to
-- 1,000 from the API Keys page.
CREATE TABLE sandbox_balances (
    account_id uuid        PRIMARY KEY REFERENCES users ON DELETE CASCADE,
    credits    bigint      NOT NULL CHECK (credits >= 0),
    reset_at   timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE sandbox_listings (
    id              uuid        PRIMARY KEY,
    account_id      uuid        NOT NULL REFERENCES users ON DELETE CASCADE,
    key_id          text        NOT NULL,
    asin            text        NOT NULL,
    amazon_url      text        NOT NULL,
    idempotency_key text,
    credits_after   bigint      NOT NULL, -- the test credits left after it, its answer's creditsRemaining
    created_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE (account_id, idempotency_key)
);
CREATE INDEX sandbox_listings_account ON sandbox_listings (account_id, created_at DESC, id DESC);

-- +goose Down
DROP TABLE sandbox_listings;
DROP TABLE sandbox_balances;
DROP INDEX api_keys_due;
DROP INDEX api_keys_account;
DROP INDEX api_keys_primary;
DELETE FROM api_keys WHERE NOT is_primary;
ALTER TABLE api_keys
    DROP COLUMN name, DROP COLUMN mode, DROP COLUMN prefix, DROP COLUMN encrypted, DROP COLUMN is_primary,
    DROP COLUMN expires_at, DROP COLUMN retires_at, DROP COLUMN last_used_at;
ALTER TABLE api_keys ADD CONSTRAINT api_keys_account_id_key UNIQUE (account_id);
