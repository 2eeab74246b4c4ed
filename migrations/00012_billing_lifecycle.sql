-- +goose Up
-- Billing as sellers and Stripe behave (issue 14): a cancelling
-- subscription's end, credits owed after a refund or a lost dispute, and
-- the open disputes that freeze spending, on the profile; a checkout
-- replaced by a newer one is voided.
--
-- Existing profiles keep what they show until the profiles projection is
-- rebuilt (README, upgrading): a subscription cancelled before this
-- release shows "cancelled" rather than "cancelling" until then.
ALTER TABLE profiles
    ADD COLUMN subscription_ends_at timestamptz,
    ADD COLUMN credit_debt          bigint  NOT NULL DEFAULT 0,
    ADD COLUMN open_disputes        integer NOT NULL DEFAULT 0;

ALTER TABLE payment_intents
    DROP CONSTRAINT payment_intents_status_check,
    ADD CONSTRAINT payment_intents_status_check CHECK (status IN ('requires_payment', 'succeeded', 'failed', 'voided'));

ALTER TABLE provider_requests
    DROP CONSTRAINT provider_requests_action_check,
    ADD CONSTRAINT provider_requests_action_check
        CHECK (action IN ('subscription', 'credits', 'cancel', 'cancel_now', 'resume', 'void'));

-- +goose Down
ALTER TABLE provider_requests
    DROP CONSTRAINT provider_requests_action_check,
    ADD CONSTRAINT provider_requests_action_check CHECK (action IN ('subscription', 'credits', 'cancel'));
ALTER TABLE payment_intents
    DROP CONSTRAINT payment_intents_status_check,
    ADD CONSTRAINT payment_intents_status_check CHECK (status IN ('requires_payment', 'succeeded', 'failed'));
ALTER TABLE profiles
    DROP COLUMN subscription_ends_at,
    DROP COLUMN credit_debt,
    DROP COLUMN open_disputes;
