-- +goose Up
-- Signed webhooks (issue 35). An endpoint's row is written in the
-- transaction that records its WebhookEndpointAdded event; its signing
-- secrets are sealed (AES-GCM, APP_SECRET) and never in an event.
-- from_position is set by the dispatcher when it reads the endpoint's
-- WebhookEndpointAdded in the log: the endpoint receives the events after
-- it, and nothing older.
CREATE TABLE webhook_endpoints (
    id                   text        PRIMARY KEY,
    account_id           uuid        NOT NULL,
    url                  text        NOT NULL,
    events               text[]      NOT NULL,
    secret               text        NOT NULL,             -- sealed whsec_…
    previous_secret      text        NOT NULL DEFAULT '',  -- sealed; signs too until previous_valid_until
    previous_valid_until timestamptz,
    status               text        NOT NULL DEFAULT 'enabled' CHECK (status IN ('enabled', 'disabled')),
    from_position        bigint,
    failing_since        timestamptz,                      -- the first failure since the last success
    created_at           timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id);

-- One row per (endpoint, ledger event): the unique key makes a re-read of
-- the log (two dispatchers, a checkpoint moved back) add nothing. A claimed
-- delivery is 'sending' with next_attempt_at as its lease, as in the mail
-- outbox. The body is stored once, so a retry or a resend sends the same
-- bytes.
CREATE TABLE webhook_deliveries (
    id              uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    endpoint_id     text        NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    account_id      uuid        NOT NULL,
    event_id        text        NOT NULL,   -- the body's id, evt_<ledger event id>
    event_type      text        NOT NULL,
    position        bigint      NOT NULL,   -- the ledger event's global position: the order per endpoint
    body            bytea       NOT NULL,
    status          text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'delivered', 'failed')),
    attempts        int         NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    created_at      timestamptz NOT NULL,
    last_attempt_at timestamptz,
    last_status     int,                    -- the receiver's HTTP status; NULL when none answered
    last_error      text        NOT NULL DEFAULT '',
    last_latency_ms int,
    delivered_at    timestamptz,
    UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status IN ('pending', 'sending');
CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, position);

-- The dispatcher's checkpoint: the last global position it turned into
-- deliveries. Its own, never a projection's, so a projector rebuild sends
-- nothing again. No endpoint exists before this migration, so it starts at
-- the head of the log.
CREATE TABLE webhook_dispatch (
    id       int    PRIMARY KEY CHECK (id = 1),
    position bigint NOT NULL
);
INSERT INTO webhook_dispatch (id, position) SELECT 1, coalesce(max(global_position), 0) FROM events;

-- +goose Down
DROP TABLE webhook_dispatch;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_endpoints;
