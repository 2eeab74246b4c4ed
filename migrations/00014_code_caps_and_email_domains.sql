-- +goose Up
-- Issue 25, item 4: when each of an account's recent verification codes
-- was sent (the last day's), so codes and their mails are capped per hour
-- and per day, not only one a minute.
ALTER TABLE verification_codes ADD COLUMN sends timestamptz[] NOT NULL DEFAULT '{}';
UPDATE verification_codes SET sends = ARRAY[sent_at];

-- +goose Down
ALTER TABLE verification_codes DROP COLUMN sends;
