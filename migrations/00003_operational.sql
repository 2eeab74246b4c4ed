-- +goose Up
-- Operational tables: secrets and lookups that never belong in events.
CREATE TABLE users (
    account_id    uuid        PRIMARY KEY,
    email         text        NOT NULL,
    password_hash text        NOT NULL,
    is_staff      boolean     NOT NULL DEFAULT false,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email ON users (lower(email));

CREATE TABLE sessions (
    token_hash   text        PRIMARY KEY,
    account_id   uuid        NOT NULL REFERENCES users ON DELETE CASCADE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id);

CREATE TABLE verification_codes (
    account_id uuid        PRIMARY KEY REFERENCES users ON DELETE CASCADE,
    code_hash  text        NOT NULL,
    expires_at timestamptz NOT NULL,
    attempts   integer     NOT NULL DEFAULT 0,
    sent_at    timestamptz NOT NULL
);

CREATE TABLE password_reset_tokens (
    token_hash text        PRIMARY KEY,
    account_id uuid        NOT NULL REFERENCES users ON DELETE CASCADE,
    expires_at timestamptz NOT NULL,
    used_at    timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- The one working API key of each account, by hash. Replaced in the same
-- transaction as the APIKeyRotated event, so the old key stops at once.
CREATE TABLE api_keys (
    key_hash   text        PRIMARY KEY,
    account_id uuid        NOT NULL UNIQUE REFERENCES users ON DELETE CASCADE,
    key_id     text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- Development mailbox: emails captured when no SMTP_URL is configured.
CREATE TABLE dev_mail (
    id        bigserial   PRIMARY KEY,
    recipient text        NOT NULL,
    subject   text        NOT NULL,
    body      text        NOT NULL,
    sent_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dev_mail_recipient ON dev_mail (lower(recipient), id DESC);

CREATE TABLE support_requests (
    id         uuid        PRIMARY KEY,
    account_id uuid        NOT NULL REFERENCES users ON DELETE CASCADE,
    email      text        NOT NULL,
    subject    text        NOT NULL,
    message    text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);

-- +goose Down
DROP TABLE support_requests;
DROP TABLE dev_mail;
DROP TABLE api_keys;
DROP TABLE password_reset_tokens;
DROP TABLE verification_codes;
DROP TABLE sessions;
DROP TABLE users;
