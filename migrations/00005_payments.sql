-- +goose Up
-- Payment provider lookups. The ledger lives in events; these tables only map
-- the provider's objects to accounts and remember what a checkout asked for.
-- No card data, and client secrets only as hashes.

-- The provider's customer of an account, created once per account.
CREATE TABLE stripe_customers (
    account_id  uuid        PRIMARY KEY REFERENCES users ON DELETE CASCADE,
    customer_id text        NOT NULL UNIQUE,
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- Every payment the server asked the browser to confirm: a credit purchase
-- or the first invoice of a subscription. The simulated provider confirms by
-- client secret, so for its payments the secret's SHA-256 is kept to find
-- the row; Stripe's are confirmed by Stripe.js and keep none.
CREATE TABLE payment_intents (
    intent_id          text        PRIMARY KEY,
    account_id         uuid        NOT NULL REFERENCES users ON DELETE CASCADE,
    kind               text        NOT NULL CHECK (kind IN ('subscription', 'credits')),
    credits            bigint      NOT NULL CHECK (credits > 0),
    amount_cents       bigint      NOT NULL CHECK (amount_cents >= 0),
    currency           text        NOT NULL,
    subscription_id    text,
    invoice_id         text,
    client_secret_hash text        UNIQUE,
    status             text        NOT NULL DEFAULT 'requires_payment'
                                   CHECK (status IN ('requires_payment', 'succeeded', 'failed')),
    created_at         timestamptz NOT NULL DEFAULT now(),
    updated_at         timestamptz NOT NULL DEFAULT now(),
    CHECK ((kind = 'subscription') = (subscription_id IS NOT NULL AND invoice_id IS NOT NULL))
);
CREATE INDEX payment_intents_account ON payment_intents (account_id, created_at DESC);
CREATE INDEX payment_intents_invoice ON payment_intents (invoice_id) WHERE invoice_id IS NOT NULL;

-- +goose Down
DROP TABLE payment_intents;
DROP TABLE stripe_customers;
