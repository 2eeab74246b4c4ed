-- +goose Up
-- Issue 25, item 4: when each of an account's recent verification codes
-- was sent (the last day's), so codes and their mails are capped per hour
-- and per day, not only one a minute. (Written to run again harmlessly:
-- the migration test replays this section over rows it arranges.)
ALTER TABLE verification_codes ADD COLUMN IF NOT EXISTS sends timestamptz[] NOT NULL DEFAULT '{}';
UPDATE verification_codes SET sends = ARRAY[sent_at] WHERE sends = '{}';

-- Issue 25, item 5: an address's domain is stored in one form, ASCII as
-- UTS #46 maps it (domain.NormalizeEmail), so v@bücher.example and
-- v@xn--bcher-kva.example are one account. Older rows hold the Unicode
-- form (already NFKC and lowercase, migration 00009): their Unicode labels
-- become xn-- labels (RFC 3492 punycode, below, in session-local functions
-- dropped at the end). As in 00009, a row whose new form another account
-- already holds (the same mailbox registered twice) is left as it is, for
-- support to resolve; of several such rows only the oldest moves.
-- +goose StatementBegin
CREATE FUNCTION pg_temp.a2e_punycode(label text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    base  CONSTANT bigint := 36;
    tmin  CONSTANT bigint := 1;
    tmax  CONSTANT bigint := 26;
    skew  CONSTANT bigint := 38;
    damp  CONSTANT bigint := 700;
    cps   int[] := ARRAY(SELECT ascii(ch) FROM regexp_split_to_table(label, '') WITH ORDINALITY AS s(ch, i) ORDER BY i);
    total int := coalesce(array_length(cps, 1), 0);
    res   text := '';
    n     bigint := 128;
    delta bigint := 0;
    bias  bigint := 72;
    b     int;
    h     int;
    m     bigint;
    q     bigint;
    k     bigint;
    t     bigint;
    d     bigint;
    c     int;
BEGIN
    FOREACH c IN ARRAY cps LOOP
        IF c < 128 THEN res := res || chr(c); END IF;
    END LOOP;
    b := length(res);
    h := b;
    IF b > 0 THEN res := res || '-'; END IF;
    WHILE h < total LOOP
        SELECT min(x) INTO m FROM unnest(cps) AS x WHERE x >= n;
        delta := delta + (m - n) * (h + 1);
        n := m;
        FOREACH c IN ARRAY cps LOOP
            IF c < n THEN delta := delta + 1; END IF;
            IF c = n THEN
                q := delta;
                k := base;
                LOOP
                    t := CASE WHEN k <= bias THEN tmin WHEN k >= bias + tmax THEN tmax ELSE k - bias END;
                    EXIT WHEN q < t;
                    d := t + (q - t) % (base - t);
                    res := res || chr((CASE WHEN d < 26 THEN 97 + d ELSE 22 + d END)::int);
                    q := (q - t) / (base - t);
                    k := k + base;
                END LOOP;
                res := res || chr((CASE WHEN q < 26 THEN 97 + q ELSE 22 + q END)::int);
                -- adapt the bias (RFC 3492, section 6.1)
                d := CASE WHEN h = b THEN delta / damp ELSE delta / 2 END;
                d := d + d / (h + 1);
                k := 0;
                WHILE d > ((base - tmin) * tmax) / 2 LOOP
                    d := d / (base - tmin);
                    k := k + base;
                END LOOP;
                bias := k + ((base - tmin + 1) * d) / (d + skew);
                delta := 0;
                h := h + 1;
            END IF;
        END LOOP;
        delta := delta + 1;
        n := n + 1;
    END LOOP;
    RETURN res;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION pg_temp.a2e_ascii_domain(domain text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT string_agg(CASE WHEN octet_length(label) = char_length(label) THEN label
                           ELSE 'xn--' || pg_temp.a2e_punycode(label) END, '.' ORDER BY i)
    FROM regexp_split_to_table(translate(domain, '。｡．', '...'), '\.') WITH ORDINALITY AS s(label, i)
$$;
-- +goose StatementEnd

WITH unicode AS (
    SELECT account_id, created_at,
           substring(email from '^(.*@)[^@]*$') AS local_at,
           substring(email from '@([^@]*)$') AS domain
    FROM users
), candidates AS (
    SELECT account_id, local_at || pg_temp.a2e_ascii_domain(domain) AS normal,
           row_number() OVER (PARTITION BY local_at || pg_temp.a2e_ascii_domain(domain) ORDER BY created_at, account_id) AS n
    FROM unicode
    WHERE domain IS NOT NULL AND (octet_length(domain) <> char_length(domain) OR domain ~ '[。｡．]')
)
UPDATE users u SET email = c.normal
FROM candidates c
WHERE u.account_id = c.account_id AND c.n = 1
  AND NOT EXISTS (SELECT 1 FROM users o WHERE o.account_id <> u.account_id AND lower(o.email) = c.normal);

DROP FUNCTION pg_temp.a2e_ascii_domain(text);
DROP FUNCTION pg_temp.a2e_punycode(text);

-- +goose Down
ALTER TABLE verification_codes DROP COLUMN sends;
