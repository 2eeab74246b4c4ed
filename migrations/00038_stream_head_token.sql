-- +goose Up
-- A stream head's token (issue 36, eighth session): every write of a head
-- draws a fresh random non-zero one (eventstore: headsQuery, the created
-- heads' insert, Append's head move), so a head at a version with a token
-- is the one that write left, and a caller that holds the state that write
-- left (the spends' account cache) is told so by the lock query instead of
-- being sent the snapshot again: the version alone is not proof after a
-- failover, which can take a head back to a version another history then
-- reaches again. NULL on rows no binary has written since (and matches no
-- caller's head). A new nullable column with no default: no table rewrite.
ALTER TABLE streams ADD COLUMN token bigint;

-- +goose Down
ALTER TABLE streams DROP COLUMN token;
