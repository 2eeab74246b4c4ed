-- +goose Up
-- The backups the operator's job has taken (scripts/ha-backup.sh writes a row
-- after pgBackRest reports success), so /metrics can say how old the last
-- good backup is (db_backup_last_success_timestamp_seconds) and an alert
-- can fire when it is too old (deploy/prometheus/alerts.yml, issue 32).
-- Small: one row per backup; nothing in the product reads it but the metric.
CREATE TABLE backup_runs (
    finished_at timestamptz NOT NULL,
    kind        text        NOT NULL, -- full, diff or incr
    node        text        NOT NULL  -- the node it was taken from
);
CREATE INDEX backup_runs_finished_at ON backup_runs (finished_at);

-- +goose Down
DROP TABLE backup_runs;
