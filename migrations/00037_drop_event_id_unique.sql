-- +goose NO TRANSACTION
-- +goose Up
-- events.event_id without its unique index (issue 36, seventh session). No
-- statement reads events by event_id: the id travels with the record (the
-- outbox message's id, a webhook body's evt_ id), and the rows' identity
-- is their global_position (the primary key) and (stream_id,
-- stream_version), which also refuses an event written twice. Every event
-- paid an entry in that index (two a spend), under a random uuid: the
-- dearest kind of entry, on a page anywhere in an index as large as the
-- log, with its unique check, to guard against two random version-4 uuids
-- (eventstore's, from crypto/rand) colliding. The column stays.
-- Dropping a constraint takes the table's exclusive lock for a moment: it
-- waits for the statements reading events (a rebuild, a backup) to end and
-- holds appends while it waits, so apply it outside those.
ALTER TABLE events DROP CONSTRAINT IF EXISTS events_event_id_key;

-- +goose Down
-- The index is built concurrently first (appends go on meanwhile), then
-- becomes the constraint. A build that failed leaves an invalid index
-- behind: it is dropped first, so a rerun builds it whole.
DROP INDEX CONCURRENTLY IF EXISTS events_event_id_key;
CREATE UNIQUE INDEX CONCURRENTLY events_event_id_key ON events (event_id);
ALTER TABLE events ADD CONSTRAINT events_event_id_key UNIQUE USING INDEX events_event_id_key;
