-- +goose Up
-- Issue 26, part B.
--
-- The support inbox: every request has a status (open until staff answer,
-- answered, closed) and a thread of replies. Staff replies are mailed to
-- the seller through the mail outbox in the transaction that stores them.
ALTER TABLE support_requests
    ADD COLUMN status     text        NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'answered', 'closed')),
    ADD COLUMN updated_at timestamptz;
UPDATE support_requests SET updated_at = created_at;
ALTER TABLE support_requests ALTER COLUMN updated_at SET NOT NULL;
-- The inbox lists newest first, optionally of one status, by keyset.
CREATE INDEX support_requests_inbox ON support_requests (created_at DESC, id DESC);
CREATE INDEX support_requests_inbox_status ON support_requests (status, created_at DESC, id DESC);

CREATE TABLE support_replies (
    id         uuid        PRIMARY KEY,
    request_id uuid        NOT NULL REFERENCES support_requests ON DELETE CASCADE,
    -- who wrote it: a staff member (author_id, their address), never the seller
    -- for now (sellers write a new request).
    author_id  uuid        REFERENCES users ON DELETE SET NULL,
    author     text        NOT NULL,
    message    text        NOT NULL,
    created_at timestamptz NOT NULL
);
CREATE INDEX support_replies_request ON support_replies (request_id, created_at);

-- Refunds and cancellations staff ask the provider for from the console.
-- Their ledger changes arrive through the webhook like any other; the
-- event that applies one takes its staff member and reason from here
-- (applied_event: that Stripe event's id, so a request is attributed once).
ALTER TABLE provider_requests
    DROP CONSTRAINT provider_requests_action_check,
    ADD CONSTRAINT provider_requests_action_check
        CHECK (action IN ('subscription', 'credits', 'cancel', 'cancel_now', 'resume', 'void',
                          'staff_refund', 'staff_cancel', 'staff_cancel_now')),
    ADD COLUMN actor         text,         -- staff:<account id>
    ADD COLUMN reason        text,
    ADD COLUMN amount_cents  bigint,       -- a refund's amount
    ADD COLUMN provider_ref  text,         -- the provider's refund id, once answered
    ADD COLUMN request_hash  text,         -- what a console Idempotency-Key was first used for
    ADD COLUMN applied_event text;
CREATE INDEX provider_requests_staff_pending ON provider_requests (target, created_at)
    WHERE action IN ('staff_refund', 'staff_cancel', 'staff_cancel_now') AND applied_event IS NULL;

-- +goose Down
DROP INDEX provider_requests_staff_pending;
DELETE FROM provider_requests WHERE action IN ('staff_refund', 'staff_cancel', 'staff_cancel_now');
ALTER TABLE provider_requests
    DROP COLUMN applied_event,
    DROP COLUMN request_hash,
    DROP COLUMN provider_ref,
    DROP COLUMN amount_cents,
    DROP COLUMN reason,
    DROP COLUMN actor,
    DROP CONSTRAINT provider_requests_action_check,
    ADD CONSTRAINT provider_requests_action_check
        CHECK (action IN ('subscription', 'credits', 'cancel', 'cancel_now', 'resume', 'void'));
DROP TABLE support_replies;
DROP INDEX support_requests_inbox_status;
DROP INDEX support_requests_inbox;
ALTER TABLE support_requests DROP COLUMN updated_at, DROP COLUMN status;
