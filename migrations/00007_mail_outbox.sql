-- +goose Up
-- Every email, written in the transaction that decides to send it and
-- delivered after commit by the mail sender (internal/mail.Sender), with
-- retries. A claimed mail is 'sending' with next_attempt_at as its lease: a
-- sender killed mid-delivery leaves it to be claimed again once the lease
-- ends. Bodies (codes, reset links) are blanked once a mail is final, and
-- final rows are pruned after a week.
CREATE TABLE mail_outbox (
    id              bigserial   PRIMARY KEY,
    kind            text        NOT NULL,   -- verification | reset | support | billing
    recipient       text        NOT NULL,
    reply_to        text        NOT NULL DEFAULT '',
    subject         text        NOT NULL,
    body            text        NOT NULL,
    status          text        NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
    attempts        int         NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    expires_at      timestamptz NOT NULL,      -- given up after this (a code's lifetime, or MAIL_GIVE_UP_AFTER)
    created_at      timestamptz NOT NULL,
    sent_at         timestamptz,
    last_error      text        NOT NULL DEFAULT ''
);
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at, id) WHERE status IN ('pending', 'sending');
CREATE INDEX mail_outbox_failed ON mail_outbox (id) WHERE status = 'failed';

-- +goose Down
DROP TABLE mail_outbox;
