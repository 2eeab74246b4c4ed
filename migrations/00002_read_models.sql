-- +goose Up
-- Projection checkpoints: per projection and stream, the last stream version
-- applied. Written in the same transaction as the projection's rows.
CREATE TABLE projection_checkpoints (
    projection      text   NOT NULL,
    stream_id       text   NOT NULL,
    version         bigint NOT NULL,
    global_position bigint NOT NULL,
    PRIMARY KEY (projection, stream_id)
);

CREATE TABLE profiles (
    account_id                uuid        PRIMARY KEY,
    email                     text        NOT NULL,
    is_verified               boolean     NOT NULL DEFAULT false,
    subscription_status       text        NOT NULL DEFAULT 'inactive',
    subscription_renewal_date timestamptz,
    api_key_prefix            text        NOT NULL DEFAULT '',
    api_key_encrypted         text        NOT NULL DEFAULT '',
    credits_available         bigint      NOT NULL DEFAULT 0,
    credits_used              bigint      NOT NULL DEFAULT 0,
    listings_created          bigint      NOT NULL DEFAULT 0,
    vero_checks               bigint      NOT NULL DEFAULT 0,
    downloads                 bigint      NOT NULL DEFAULT 0,
    registered_at             timestamptz NOT NULL,
    updated_at                timestamptz NOT NULL
);

CREATE TABLE usage_statistics (
    account_id       uuid   NOT NULL,
    day              date   NOT NULL,
    credits_used     bigint NOT NULL DEFAULT 0,
    listings_created bigint NOT NULL DEFAULT 0,
    vero_checks      bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (account_id, day)
);

CREATE TABLE transactions (
    payment_id       text        PRIMARY KEY,
    account_id       uuid        NOT NULL,
    transaction_date timestamptz NOT NULL,
    description      text        NOT NULL,
    amount_cents     bigint      NOT NULL,
    status           text        NOT NULL,
    invoice_url      text
);
CREATE INDEX transactions_account_date ON transactions (account_id, transaction_date DESC);

-- +goose Down
DROP TABLE transactions;
DROP TABLE usage_statistics;
DROP TABLE profiles;
DROP TABLE projection_checkpoints;
