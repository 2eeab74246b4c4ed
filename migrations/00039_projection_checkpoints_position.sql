-- +goose NO TRANSACTION
-- +goose Up
-- Projection checkpoints above the watermark (issue 36, eleventh session):
-- a live batch no longer moves a checkpoint row per (projection, stream) it
-- applies; the watermark, moved in the same transaction as the rows, says
-- every event at or below it is applied. Only a per-stream CatchUp writes a
-- checkpoint, for what it applied above the watermark, and a batch reads
-- just those: the rows of its projections whose position is past the
-- lowest watermark, a range of this index (the rows live batches wrote
-- before are at or below their watermarks and are never read again).
-- Built concurrently: a projector still running keeps writing checkpoints
-- meanwhile. A build that failed leaves an invalid index: it is dropped
-- first, so a rerun builds it whole.
-- Upgrade: stop every bin/projector and bin/api of an earlier release before
-- the new ones start (README, Upgrading). An earlier projector skips events
-- by checkpoints alone, which the new one no longer writes, and would fold
-- again what a new one applied; going back down does not make it safe again.
DROP INDEX CONCURRENTLY IF EXISTS projection_checkpoints_position;
CREATE INDEX CONCURRENTLY projection_checkpoints_position ON projection_checkpoints (projection, global_position);

-- +goose Down
DROP INDEX CONCURRENTLY IF EXISTS projection_checkpoints_position;
