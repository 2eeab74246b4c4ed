-- +goose Up
-- Per projection, a position of the event log at or below which every
-- event has been applied (its stream's checkpoint has passed it). Lag and
-- the start-up catch-up read the log from here, so their cost follows the
-- events since, not the number of accounts. Advanced by the projector; it
-- only ever moves forward.
CREATE TABLE projection_watermarks (
    projection text   PRIMARY KEY,
    position   bigint NOT NULL
);

-- +goose Down
DROP TABLE projection_watermarks;
