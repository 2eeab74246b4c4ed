-- +goose Up
-- Balance alerts (issue 33): the seller's alert settings and whether a
-- low-balance alert stands, on the profile. Existing profiles have no
-- settings (no account could have set any before this release), so the
-- defaults are what a rebuild would give.
ALTER TABLE profiles
    ADD COLUMN low_balance_credits    bigint,
    ADD COLUMN expiring_reminder_days integer,
    ADD COLUMN low_balance            boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE profiles
    DROP COLUMN low_balance_credits,
    DROP COLUMN expiring_reminder_days,
    DROP COLUMN low_balance;
