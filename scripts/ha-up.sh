#!/usr/bin/env bash
# make ha-up: a pg_auto_failover monitor and two data nodes (a primary and a
# synchronous secondary) on this machine, from the system's PostgreSQL
# binaries, under HA_DIR (.data/ha); WAL archived by pgBackRest into
# HA_DIR/backups. Waits until a primary and a synchronous secondary are up and
# writes HA_DIR/env (DATABASE_URL, READ_DATABASE_URL, HA_MONITOR_URL,
# HA_PGDATA_1, HA_PGDATA_2, ...).
#
# Idempotent: what exists is kept, and a node whose pg_autoctl is not running
# is started again (that is how a lost node rejoins, as a standby). Ports:
# HA_PORT (6540) for the monitor, HA_PORT+1 and +2 for the nodes. See
# scripts/ha-lib.sh for the other variables and docs/operations.md.
set -euo pipefail
source "$(dirname "$0")/ha-lib.sh"
"$HA_ROOT/scripts/ensure-ha-tools.sh"

for p in pg_ctl initdb postgres; do
	[ -x "$HA_PG_BIN/$p" ] || { echo "ha-up: $HA_PG_BIN/$p is missing (PostgreSQL $HA_PG_MAJOR server)" >&2; exit 1; }
done
id "$HA_USER" >/dev/null 2>&1 || { echo "ha-up: user $HA_USER does not exist (set HA_USER)" >&2; exit 1; }

mkdir -p "$HA_DIR"/{home/config,home/share,home/run,log,run,backups,spool}
if [ "$(id -u)" -eq 0 ]; then
	chown -R "$HA_USER:$(id -g "$HA_USER")" "$HA_DIR"
	# The server user must reach HA_DIR through every folder above it.
	for d in "$HA_DIR" $(d=$HA_DIR; while [ "$d" != / ]; do d=$(dirname "$d"); echo "$d"; done); do
		if ! setpriv --reuid="$HA_USER" --regid="$(id -g "$HA_USER")" --clear-groups test -x "$d"; then
			echo "ha-up: user $HA_USER cannot enter $d (chmod o+x $d, or set HA_DIR elsewhere)" >&2
			exit 1
		fi
	done
fi

# pgBackRest: one stanza, a repository folder; both nodes archive into it.
cat >"$HA_PGBACKREST_CONF" <<CONF
[global]
repo1-path=$HA_DIR/backups
repo1-retention-full=2
log-path=$HA_DIR/log
lock-path=$HA_DIR/run
spool-path=$HA_DIR/spool
log-level-console=warn
log-level-file=info
start-fast=y
archive-async=n
compress-type=lz4

[$HA_STANZA]
pg1-path=$(node_dir 1)
pg1-port=$(node_port 1)
pg1-socket-path=/tmp
pg1-user=postgres
CONF
chmod 644 "$HA_PGBACKREST_CONF"
[ "$(id -u)" -eq 0 ] && chown "$HA_USER" "$HA_PGBACKREST_CONF"

# start N: runs node N's pg_autoctl service in its own session, detached.
start() {
	local n=$1
	shift
	echo "ha-up: starting $(basename "$(node_dir "$n")") (port $(node_port "$n"))"
	rm -f "$HA_DIR/run/node$n.pid"
	# Its own session (the test kills a node as a whole by it), its pid on record.
	as_ha setsid sh -c 'echo $$ >"$0"; exec "$@"' "$HA_DIR/run/node$n.pid" "$@" >>"$HA_DIR/log/node$n.log" 2>&1 </dev/null &
	for _ in $(seq 50); do
		[ -s "$HA_DIR/run/node$n.pid" ] && return 0
		sleep 0.1
	done
}

# The monitor's timings: how soon a silent node is declared failed. The
# defaults (20 s unhealthy, 30 s demote) are for networks; on one machine a
# node is gone when its port refuses, so the test's failover stays short.
monitor_settings() {
	cat <<CONF
pgautofailover.health_check_period = 1000
pgautofailover.health_check_timeout = 1000
pgautofailover.health_check_max_retries = 1
pgautofailover.health_check_retry_delay = 500
pgautofailover.node_considered_unhealthy_timeout = ${HA_UNHEALTHY_TIMEOUT_MS:-3000}
pgautofailover.primary_demote_timeout = ${HA_DEMOTE_TIMEOUT_MS:-5000}
pgautofailover.startup_grace_period = 5000
CONF
}

# The settings every server adds to pg_autoctl's, in postgresql.auto.conf
# (read last, and copied to the second node with its data): sockets where the
# server user may write, this machine only; on data nodes WAL archived by
# pgBackRest once a node is primary (archive_mode=on archives nothing on a
# standby).
server_settings() {
	cat <<CONF
# added by scripts/ha-up.sh
unix_socket_directories = '/tmp'
listen_addresses = '127.0.0.1'
CONF
	[ "$1" = 0 ] && return 0
	cat <<CONF
archive_mode = on
archive_command = 'pgbackrest --config=$HA_PGBACKREST_CONF --stanza=$HA_STANZA archive-push %p'
archive_timeout = 60s
CONF
}

# init N: initdb for the monitor (0) or the first node (1).
init() {
	local dir
	dir=$(node_dir "$1")
	[ -f "$dir/PG_VERSION" ] && return 0
	# The superuser is HA_USER, as pg_autoctl expects; it makes the role postgres.
	as_ha "$HA_PG_BIN/initdb" -D "$dir" --auth=trust -E UTF8 --locale=C >>"$HA_DIR/log/create.log" 2>&1 ||
		{ echo "ha-up: initdb $dir failed; $HA_DIR/log/create.log:" >&2; tail -n 20 "$HA_DIR/log/create.log" >&2; exit 1; }
	{ server_settings "$1"; if [ "$1" = 0 ]; then monitor_settings; fi; } | as_ha tee -a "$dir/postgresql.auto.conf" >/dev/null
}

mon=$(node_dir 0)
if [ ! -f "$HA_DIR/home/config/pg_autoctl$mon/pg_autoctl.cfg" ]; then
	init 0
	as_ha pg_autoctl create monitor --pgdata "$mon" --pgport "$HA_PORT" --hostname 127.0.0.1 \
		--auth trust --no-ssl --pgctl "$HA_PG_BIN/pg_ctl" >>"$HA_DIR/log/create.log" 2>&1 ||
		{ echo "ha-up: create monitor failed; $HA_DIR/log/create.log:" >&2; tail -n 20 "$HA_DIR/log/create.log" >&2; exit 1; }
	# pg_autoctl starts the monitor with -h from its own configuration.
	as_ha pg_autoctl config set --pgdata "$mon" postgresql.listen_addresses 127.0.0.1 >/dev/null
fi
ha_pid 0 >/dev/null || start 0 pg_autoctl run --pgdata "$mon"
for _ in $(seq 100); do
	monitor_sql 'SELECT 1' >/dev/null 2>&1 && break
	sleep 0.2
done

# node N: creates node N (first time) or runs it again.
node() {
	local n=$1 dir
	dir=$(node_dir "$n")
	ha_pid "$n" >/dev/null && return 0
	if [ -f "$HA_DIR/home/config/pg_autoctl$dir/pg_autoctl.cfg" ]; then
		start "$n" pg_autoctl run --pgdata "$dir"
		return 0
	fi
	local create=(pg_autoctl create postgres --pgdata "$dir" --pgport "$(node_port "$n")" --pghost /tmp
		--hostname 127.0.0.1 --listen 127.0.0.1 --name "node$n" --dbname "$HA_DB" --username postgres
		--monitor "$HA_MONITOR_URL" --auth trust --no-ssl --pgctl "$HA_PG_BIN/pg_ctl")
	if [ "$n" = 1 ]; then
		init 1 # the second node clones it, settings included
	fi
	start "$n" "${create[@]}" --run

}

# states: each node's reported and assigned state, as the monitor has them
# ("node1:primary/primary node2:secondary/secondary"); wait_for WHAT SECONDS
# CHECK polls CHECK until it holds, else fails saying WHAT.
states() {
	monitor_sql "SELECT string_agg(nodename || ':' || reportedstate || '/' || goalstate, ' ' ORDER BY nodename) FROM pgautofailover.node" 2>/dev/null
}
primary_and_secondary() {
	local s
	s=$(states)
	[[ " $s " == *":primary/primary "* && " $s " == *":secondary/secondary "* ]]
}
wait_for() {
	local what=$1 secs=$2 check=$3
	for _ in $(seq $((secs * 5))); do
		$check && return 0
		sleep 0.2
	done
	echo "ha-up: no $what after ${secs}s; monitor says: $(states)" >&2
	tail -n 20 "$HA_DIR"/log/node*.log >&2
	exit 1
}

# The first node becomes the primary (single) before the second clones it.
node 1
single_or_more() { [[ " $(states) " == *":single/single "* || " $(states) " == *":primary/"* || " $(states) " == *":wait_primary/"* ]]; }
wait_for "first node" 120 single_or_more
node 2
# pg_autoctl clones the primary with pg_basebackup, whose checkpoint is a
# spread one (minutes on a fresh cluster); an explicit CHECKPOINT on the
# primary makes the checkpoint in progress finish at once. A node is cloning
# when catchingup or wait_standby is its reported state or its goal: an old
# primary rejoining after a failover reports demoted/catchingup for the whole
# clone when pg_rewind fails and pg_autoctl falls back to pg_basebackup (seen
# on PostgreSQL 15: "standby mode is not supported by single-user servers").
hurry=0
cloning() { [[ " $(states) " =~ [:/](catchingup|wait_standby)[/\ ] ]]; }
cloned() {
	primary_and_secondary && return 0
	if cloning && [ $((hurry++ % 10)) = 0 ]; then
		local p
		p=$(monitor_sql "SELECT nodeport FROM pgautofailover.node WHERE reportedstate IN ('wait_primary', 'primary', 'single') LIMIT 1")
		[ -n "$p" ] && psql "postgres://postgres@127.0.0.1:$p/postgres?sslmode=disable" -qtAX -c CHECKPOINT >/dev/null 2>&1
	fi
	return 1
}
wait_for "primary and secondary" 180 cloned

# The primary, its synchronous standby names, WAL archiving.
primary_port=$(monitor_sql "SELECT nodeport FROM pgautofailover.node WHERE reportedstate = 'primary' LIMIT 1")
psql_node() { psql "postgres://postgres@127.0.0.1:$1/$HA_DB?sslmode=disable" -qtAX -v ON_ERROR_STOP=1 -c "$2"; }
sync_names() { [ -n "$(psql_node "$primary_port" 'SHOW synchronous_standby_names' 2>/dev/null)" ]; }
wait_for "synchronous standby" 60 sync_names

primary_name=$(monitor_sql "SELECT nodename FROM pgautofailover.node WHERE reportedstate = 'primary' LIMIT 1")

# The stanza follows the primary (pg1 is whichever node is primary now).
sed -i -e "s#^pg1-path=.*#pg1-path=$(node_dir "${primary_name#node}")#" -e "s#^pg1-port=.*#pg1-port=$primary_port#" "$HA_PGBACKREST_CONF"
as_ha pgbackrest --config="$HA_PGBACKREST_CONF" --stanza="$HA_STANZA" stanza-create >>"$HA_DIR/log/create.log" 2>&1 ||
	{ echo "ha-up: pgbackrest stanza-create failed:" >&2; tail -n 20 "$HA_DIR/log/create.log" >&2; exit 1; }

uri=$(as_ha pg_autoctl show uri --pgdata "$mon" --formation default)
# pg_autoctl's URI names no user; the product connects as postgres.
uri=${uri/postgres:\/\//postgres://postgres@}
read_uri=${uri/target_session_attrs=read-write/target_session_attrs=prefer-standby}
cat >"$HA_DIR/env" <<ENV
DATABASE_URL='$uri'
READ_DATABASE_URL='$read_uri'
HA_MONITOR_URL='$HA_MONITOR_URL'
HA_PGDATA_1='$(node_dir 1)'
HA_PGDATA_2='$(node_dir 2)'
HA_PGBACKREST_CONF='$HA_PGBACKREST_CONF'
HA_STANZA='$HA_STANZA'
BENCH_DATABASE_URL='$uri'
ENV
echo "ha-up: $(states)"
echo "ha-up: synchronous_standby_names = $(psql_node "$primary_port" 'SHOW synchronous_standby_names')"
echo "ha-up: wrote $HA_DIR/env"
