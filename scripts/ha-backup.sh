#!/usr/bin/env bash
# A pgBackRest backup of the cluster of make ha-up into HA_DIR/backups:
#   scripts/ha-backup.sh [full|diff|incr]     (default incr; the first is full)
# It backs up whichever node is primary now (pg1 of the stanza follows it),
# then records the time of the last good backup for /metrics
# (db_backup_last_success_timestamp_seconds; docs/operations.md).
set -euo pipefail
source "$(dirname "$0")/ha-lib.sh"
type=${1:-incr}
primary=$(monitor_sql "SELECT nodename || ' ' || nodeport FROM pgautofailover.node WHERE reportedstate IN ('primary', 'wait_primary', 'single') LIMIT 1")
[ -n "$primary" ] || { echo "ha-backup: the monitor reports no primary" >&2; exit 1; }
name=${primary% *}
port=${primary#* }
sed -i -e "s#^pg1-path=.*#pg1-path=$HA_DIR/$name#" -e "s#^pg1-port=.*#pg1-port=$port#" "$HA_PGBACKREST_CONF"
as_ha pgbackrest --config="$HA_PGBACKREST_CONF" --stanza="$HA_STANZA" --type="$type" backup
psql "postgres://postgres@127.0.0.1:$port/$HA_DB?sslmode=disable" -qtAX -v ON_ERROR_STOP=1 \
	-c "INSERT INTO backup_runs (finished_at, kind, node) VALUES (now(), '$type', '$name')" >/dev/null
as_ha pgbackrest --config="$HA_PGBACKREST_CONF" --stanza="$HA_STANZA" info | sed -n '/full backup\|incr backup\|diff backup/,$p' | tail -n 8
