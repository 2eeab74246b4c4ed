-- +goose Up
-- A stream head's token (issue 36, eighth session): every write of a head
-- draws a fresh random non-zero one (eventstore: headsQuery, the created
-- heads' insert, Append's head move), so a head at a version with a token
-- is the one that write left, and a caller that holds the state that write
-- left (the spends' account cache) is told so by the lock query instead of
-- being sent the snapshot again: the version alone is not proof after a
-- failover, which can take a head back to a version another history then
-- reaches again. NULL on rows no binary has written since (it matches no
-- caller's head).
--
-- And the saved state's bytes move to a new last column, saved, after the
-- token: a spend now writes the snapshot only every 32 versions, and
-- PostgreSQL leaves out of an update's WAL record only the new row's
-- prefix and suffix that are the old row's (on the same page), so a
-- snapshot left as it is costs no WAL only at the end of the row: in
-- snapshot, before token, the whole 0.9 kB was logged with every head
-- write (docs/benchmarks.md). eventstore reads state, else snapshot, else
-- saved, and writes saved, clearing the other two. A binary from before
-- this migration reads a head this code saved as one without a snapshot
-- and replays its stream: do not run the two side by side.
-- New nullable columns with no default: no table rewrite.
ALTER TABLE streams ADD COLUMN token bigint, ADD COLUMN saved bytea;

-- +goose Down
-- Only the heads whose saved state is the one read (state and snapshot
-- NULL). One statement over the table: run it in a quiet window.
UPDATE streams SET snapshot = saved WHERE saved IS NOT NULL AND snapshot IS NULL AND state IS NULL;
ALTER TABLE streams DROP COLUMN saved, DROP COLUMN token;
