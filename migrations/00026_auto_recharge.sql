-- +goose Up
-- Auto-recharge (issue 33 item 2). The settings, the saved card's brand and
-- last digits and every recharge are events in the account's stream; these
-- tables hold only what the provider needs and the work still to do.

-- The card saved for off-session charges: the provider's payment method id
-- (never in events). One per account; a new card replaces it.
CREATE TABLE payment_methods (
    account_id        uuid        PRIMARY KEY REFERENCES users ON DELETE CASCADE,
    payment_method_id text        NOT NULL,
    brand             text        NOT NULL,
    last4             text        NOT NULL,
    updated_at        timestamptz NOT NULL DEFAULT now()
);

-- The SetupIntents a seller was asked to confirm (POST
-- /api/account/payment-method). The simulated provider confirms by client
-- secret, so its secret's SHA-256 is kept to find the row, as for
-- payment_intents.
CREATE TABLE setup_intents (
    setup_intent_id    text        PRIMARY KEY,
    account_id         uuid        NOT NULL REFERENCES users ON DELETE CASCADE,
    client_secret_hash text        UNIQUE,
    status             text        NOT NULL DEFAULT 'requires_confirmation'
                                   CHECK (status IN ('requires_confirmation', 'succeeded', 'failed')),
    created_at         timestamptz NOT NULL DEFAULT now()
);

-- The recharge outbox: a row per RechargeRequested, written in the
-- deciding spend's transaction; the recharge worker claims a row, charges
-- it with no transaction open (the idempotency key is the account and the
-- recharge's number), and records the answer. No foreign key: the row is
-- written by the account stream's decision, which knows the stream, not the
-- users table (as the mail outbox).
CREATE TABLE recharge_requests (
    account_id        uuid        NOT NULL,
    recharge_id       text        NOT NULL,
    credits           bigint      NOT NULL CHECK (credits > 0),
    amount_cents      bigint      NOT NULL CHECK (amount_cents > 0),
    status            text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'charged')),
    attempts          integer     NOT NULL DEFAULT 0,
    claimed_until     timestamptz,
    payment_intent_id text,
    last_error        text,
    created_at        timestamptz NOT NULL DEFAULT now(),
    settled_at        timestamptz,
    PRIMARY KEY (account_id, recharge_id)
);
CREATE INDEX recharge_requests_pending ON recharge_requests (created_at) WHERE status = 'pending';

-- +goose Down
DROP TABLE recharge_requests;
DROP TABLE setup_intents;
DROP TABLE payment_methods;
