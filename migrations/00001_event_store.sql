-- +goose Up
-- The event store. The only writer is package eventstore. Rows are never
-- updated or deleted by the application.
CREATE SEQUENCE events_position_seq AS bigint;

CREATE TABLE events (
    global_position bigint      PRIMARY KEY,
    event_id        uuid        NOT NULL UNIQUE,
    stream_id       text        NOT NULL,
    stream_version  bigint      NOT NULL CHECK (stream_version > 0),
    event_type      text        NOT NULL,
    schema_version  integer     NOT NULL DEFAULT 1,
    data            jsonb       NOT NULL,
    metadata        jsonb       NOT NULL DEFAULT '{}'::jsonb,
    recorded_at     timestamptz NOT NULL,
    UNIQUE (stream_id, stream_version)
);

-- One row per stream: its head version (the optimistic concurrency check) and
-- a snapshot of the aggregate's state written in the same transaction as the
-- append, so a command never replays the whole stream.
CREATE TABLE streams (
    stream_id     text        PRIMARY KEY,
    version       bigint      NOT NULL,
    state         jsonb,
    state_version bigint      NOT NULL DEFAULT 0,
    wake_at       timestamptz,
    updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX streams_wake_at ON streams (wake_at) WHERE wake_at IS NOT NULL;

-- Idempotent commands: a key (Stripe event id, payment id, a client's
-- Idempotency-Key) is applied once per stream; the stored result answers a retry.
CREATE TABLE idempotency_keys (
    stream_id       text        NOT NULL,
    idempotency_key text        NOT NULL,
    request_hash    text        NOT NULL,
    result          bytea, -- the first answer, byte for byte
    first_position  bigint,
    last_position   bigint,
    stream_version  bigint      NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (stream_id, idempotency_key)
);

-- The outbox that carries appended events to projectors, written in the
-- same transaction as the events (watermill-sql's PostgreSQL schema for the
-- topic "account_events").
CREATE TABLE "watermill_account_events" (
    "offset"         BIGSERIAL,
    "uuid"           VARCHAR(36) NOT NULL,
    "created_at"     TIMESTAMP   NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "payload"        JSON        DEFAULT NULL,
    "metadata"       JSON        DEFAULT NULL,
    "transaction_id" xid8        NOT NULL,
    PRIMARY KEY ("transaction_id", "offset")
);

CREATE TABLE "watermill_offsets_account_events" (
    consumer_group                VARCHAR(255) NOT NULL,
    offset_acked                  BIGINT,
    last_processed_transaction_id xid8         NOT NULL,
    PRIMARY KEY (consumer_group)
);

-- +goose Down
DROP TABLE "watermill_offsets_account_events";
DROP TABLE "watermill_account_events";
DROP TABLE idempotency_keys;
DROP TABLE streams;
DROP TABLE events;
DROP SEQUENCE events_position_seq;
