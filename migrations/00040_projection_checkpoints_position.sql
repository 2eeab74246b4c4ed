-- +goose Up
-- Projection checkpoints above the watermark (issue 36, eleventh session):
-- a live batch no longer moves a checkpoint row per (projection, stream) it
-- applies; the watermark, moved in the same transaction as the rows, says
-- every event at or below it is applied. Only a per-stream CatchUp writes a
-- checkpoint, for what it applied above the watermark, and a batch reads
-- just those: the rows of its projections whose position is past the
-- lowest watermark, a range of this index (the rows live batches wrote
-- before are at or below their watermarks and are never read again).
CREATE INDEX projection_checkpoints_position ON projection_checkpoints (projection, global_position);

-- +goose Down
DROP INDEX projection_checkpoints_position;
