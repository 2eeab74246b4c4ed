-- +goose Up
-- The time of the account's last metered spend (issue 37, item 4), on the
-- profile the dashboard reads. Existing profiles show none until the
-- profiles projection is rebuilt (README, upgrading).
ALTER TABLE profiles ADD COLUMN last_spend_at timestamptz;

-- +goose Down
ALTER TABLE profiles DROP COLUMN last_spend_at;
