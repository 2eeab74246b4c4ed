#!/usr/bin/env bash
# make ha-down: stops the cluster that make ha-up started under HA_DIR (the
# data nodes, then the monitor), keeping its data; make ha-up starts it again.
# With -purge, also removes HA_DIR.
set -euo pipefail
source "$(dirname "$0")/ha-lib.sh"

# stop N: asks node N's pg_autoctl to stop (it stops its PostgreSQL), waits
# up to 30 s, then kills what is left of its session.
stop() {
	local n=$1 pid dir
	dir=$(node_dir "$n")
	pid=$(ha_pid "$n") || pid=
	if [ -n "$pid" ]; then
		as_ha pg_autoctl stop --pgdata "$dir" >/dev/null 2>&1 || kill -TERM "$pid" 2>/dev/null || true
		for _ in $(seq 150); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.2
		done
		kill -0 "$pid" 2>/dev/null && kill -KILL -- "-$pid" 2>/dev/null || true
		echo "ha-down: stopped $(basename "$dir")"
	fi
	# A PostgreSQL left without its pg_autoctl (killed by a test) stops too.
	if [ -f "$dir/postmaster.pid" ]; then
		as_ha "$HA_PG_BIN/pg_ctl" -D "$dir" -m fast -w -t 30 stop >/dev/null 2>&1 || true
	fi
	rm -f "$HA_DIR/run/node$n.pid"
}

if [ -d "$HA_DIR" ]; then
	stop 2
	stop 1
	stop 0
fi
if [ "${1:-}" = -purge ]; then
	rm -rf "$HA_DIR"
	echo "ha-down: removed $HA_DIR"
fi
