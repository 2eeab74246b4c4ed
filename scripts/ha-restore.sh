#!/usr/bin/env bash
# Restores the cluster's pgBackRest repository into a fresh data directory
# and starts a plain PostgreSQL on it (no pg_auto_failover, no archiving, no
# synchronous standby), for a restore drill or to recover data by hand:
#   scripts/ha-restore.sh DIR PORT ['YYYY-MM-DD HH:MM:SS.ffffff+00']
# With a time, recovery stops there (point-in-time) and the server is
# promoted; without, it replays all the archived WAL. Prints what it restored.
set -euo pipefail
source "$(dirname "$0")/ha-lib.sh"
dir=${1:?usage: ha-restore.sh DIR PORT [TIME]}
port=${2:?usage: ha-restore.sh DIR PORT [TIME]}
target=${3:-}
case $dir in /*) ;; *) dir=$PWD/$dir ;; esac
[ ! -e "$dir" ] || { echo "ha-restore: $dir exists; give a fresh directory" >&2; exit 1; }
mkdir -p "$dir" && chmod 700 "$dir"
[ "$(id -u)" -eq 0 ] && chown "$HA_USER:$(id -g "$HA_USER")" "$dir"

args=(--config="$HA_PGBACKREST_CONF" --stanza="$HA_STANZA" --pg1-path="$dir" --archive-mode=off)
if [ -n "$target" ]; then
	args+=(--type=time "--target=$target" --target-action=promote)
fi
as_ha pgbackrest "${args[@]}" restore
# The restored settings are the primary's: no synchronous standby to wait
# for here, and this machine's sockets and port.
as_ha "$HA_PG_BIN/pg_ctl" -D "$dir" -l "$dir/restore.log" -w -t 120 start \
	-o "-p $port -c synchronous_standby_names= -c listen_addresses=127.0.0.1 -c unix_socket_directories=/tmp" >/dev/null
url="postgres://postgres@127.0.0.1:$port/$HA_DB?sslmode=disable"
for _ in $(seq 600); do
	[ "$(psql "$url" -qtAX -c 'SELECT pg_is_in_recovery()' 2>/dev/null)" = f ] && break
	sleep 0.2
done
[ "$(psql "$url" -qtAX -c 'SELECT pg_is_in_recovery()')" = f ] || { echo "ha-restore: still in recovery after 2 minutes; $dir/restore.log" >&2; exit 1; }
echo "  backup set:   $(as_ha pgbackrest --config="$HA_PGBACKREST_CONF" --stanza="$HA_STANZA" info --output=json | jq -r '.[0].backup[-1] | "\(.label) (\(.type), \(.info.size) bytes, WAL \(.archive.start)..\(.archive.stop))"')"
echo "  target:       ${target:-end of the archived WAL}"
echo "  recovered to: $(grep -ho 'recovery stopping before .*\|last completed transaction was at log time .*' "$dir"/log/*.log 2>/dev/null | tail -n 1)"
echo "  server:       $url"
