-- +goose Up
-- Addresses are stored in one normal form since the email rule moved into
-- domain.NormalizeEmail (NFKC, lowercased). Bring older rows to it, so their
-- owners still sign in with the address as they type it. A row whose normal
-- form another account already holds (a look-alike registered before the
-- rule) is left as it is, for support to resolve; of several such rows only
-- the oldest moves.
WITH candidates AS (
    SELECT account_id, lower(normalize(email, NFKC)) AS normal,
           row_number() OVER (PARTITION BY lower(normalize(email, NFKC)) ORDER BY created_at, account_id) AS n
    FROM users
    WHERE email <> lower(normalize(email, NFKC))
)
UPDATE users u SET email = c.normal
FROM candidates c
WHERE u.account_id = c.account_id AND c.n = 1
  AND NOT EXISTS (SELECT 1 FROM users o WHERE o.account_id <> u.account_id AND lower(o.email) = c.normal);

-- +goose Down
SELECT 1;
