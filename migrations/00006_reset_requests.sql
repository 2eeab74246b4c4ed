-- +goose Up
-- Password reset requests, queued by POST /api/auth/reset-password whether
-- or not an account has the address, so the answer costs the same either
-- way. A worker in bin/api handles them: it stores the token and queues the
-- mail in the mail outbox, at most one mail per address a minute and a few
-- an hour. Rows are pruned after a day.
CREATE TABLE password_reset_requests (
    id           bigserial   PRIMARY KEY,
    email        text        NOT NULL,          -- normalised (domain.NormalizeEmail)
    requested_at timestamptz NOT NULL,
    outcome      text        CHECK (outcome IN ('mailed', 'limited', 'no_account')),
    handled_at   timestamptz                    -- NULL while waiting
);
CREATE INDEX password_reset_requests_waiting ON password_reset_requests (id) WHERE outcome IS NULL;
CREATE INDEX password_reset_requests_mailed ON password_reset_requests (email, handled_at) WHERE outcome = 'mailed';

-- +goose Down
DROP TABLE password_reset_requests;
