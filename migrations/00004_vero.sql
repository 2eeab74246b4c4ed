-- +goose Up
-- eBay's VeRO protected brands (Verified Rights Owner programme) that the
-- desktop API's VeRO check answers from. brand_key is the brand lowercased,
-- trimmed and with runs of whitespace collapsed to one space (vero.Key);
-- brand is the name as listed. Rows come from internal/vero/brands.txt, inserted
-- at start-up by vero.Seed (never deleted, so rows added by hand stay).
CREATE TABLE vero_brands (
    brand_key text PRIMARY KEY,
    brand     text NOT NULL
);

-- +goose Down
DROP TABLE vero_brands;
