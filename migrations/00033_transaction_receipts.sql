-- +goose Up
-- Issue 38 item 6: a receipt for every paid payment without a provider
-- invoice (credit packs, custom amounts, auto-recharges), read from the
-- transactions row (GET /api/transactions/{id}). The row keeps what the
-- receipt shows beyond the list's columns: the credits bought, the amount
-- refunded so far, and the card charged when the ledger knows it (an
-- auto-recharge's saved card). The transactions projection keeps them
-- (projections/transactions.go); the rows already there are filled from
-- the event log below, as a rebuild would.
ALTER TABLE transactions
    ADD COLUMN credits        bigint NOT NULL DEFAULT 0,
    ADD COLUMN refunded_cents bigint NOT NULL DEFAULT 0,
    ADD COLUMN card_brand     text,
    ADD COLUMN card_last4     text;

UPDATE transactions t SET credits = coalesce((p.data->>'credits')::bigint, 0),
    card_brand = p.data->'card'->>'brand', card_last4 = p.data->'card'->>'last4'
FROM (SELECT DISTINCT ON (data->>'paymentId') data FROM events
      WHERE event_type = 'PaymentRecorded' ORDER BY data->>'paymentId', global_position DESC) p
WHERE p.data->>'paymentId' = t.payment_id;

UPDATE transactions t SET refunded_cents = (r.data->>'amountCents')::bigint
FROM (SELECT DISTINCT ON (data->>'paymentId') data FROM events
      WHERE event_type = 'PaymentRefunded' ORDER BY data->>'paymentId', global_position DESC) r
WHERE r.data->>'paymentId' = t.payment_id;

-- +goose Down
ALTER TABLE transactions
    DROP COLUMN card_last4,
    DROP COLUMN card_brand,
    DROP COLUMN refunded_cents,
    DROP COLUMN credits;
