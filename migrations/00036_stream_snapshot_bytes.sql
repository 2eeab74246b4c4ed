-- +goose Up
-- A stream's snapshot as the bytes its aggregate wrote (the domain's JSON),
-- stored and returned unparsed: every spend rewrites its account's snapshot,
-- and as jsonb the server parsed ~0.9 kB per spend and printed it again for
-- the next one's lock (issue 36, sixth session). A new column, written from
-- now on, rather than ALTER COLUMN ... TYPE, which would rewrite the table
-- under a lock that stops every spend while it runs. eventstore writes
-- snapshot with state NULL and reads state when it is set (a head not
-- rewritten since, or rewritten by a binary from before this migration
-- during a rolling upgrade, which leaves snapshot stale), else snapshot.
ALTER TABLE streams ADD COLUMN snapshot bytea;

-- +goose Down
-- Only the heads whose state is NULL: a head an old binary rewrote during a
-- rollback has its newer state there and a stale snapshot, which must not
-- overwrite it (state_version stays the newer one). One statement over the
-- table: run it in a quiet window.
UPDATE streams SET state = convert_from(snapshot, 'UTF8')::jsonb, snapshot = NULL WHERE snapshot IS NOT NULL AND state IS NULL;
ALTER TABLE streams DROP COLUMN snapshot;
