# Shared by scripts/ha-up.sh, ha-down.sh, ha-ctl.sh and backup-drill: where
# the high-availability cluster lives and how its programs are run
# (docs/operations.md). Sourced, never run.
#
#   HA_DIR        .data/ha           the cluster's folder: monitor/, node1/, node2/, backups/, log/, env
#   HA_PORT       6540               the monitor's port; the nodes take HA_PORT+1 and HA_PORT+2
#   HA_DB         a2e                the product's database
#   HA_USER       (see below)        who runs PostgreSQL and pg_autoctl
#   HA_PG_BIN     /usr/lib/postgresql/15/bin
#
# PostgreSQL and pg_autoctl refuse to run as root. As root, like
# internal/pgembed, they run as PGEMBED_USER (default nobody), who then owns
# HA_DIR; otherwise as the current user.

HA_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HA_DIR=${HA_DIR:-$HA_ROOT/.data/ha}
case $HA_DIR in /*) ;; *) HA_DIR=$HA_ROOT/$HA_DIR ;; esac
HA_PORT=${HA_PORT:-6540}
HA_DB=${HA_DB:-a2e}
HA_PG_MAJOR=${HA_PG_MAJOR:-15}
HA_PG_BIN=${HA_PG_BIN:-/usr/lib/postgresql/$HA_PG_MAJOR/bin}
HA_STANZA=${HA_STANZA:-a2e}
HA_MONITOR_PORT=$HA_PORT
HA_MONITOR_URL="postgres://autoctl_node@127.0.0.1:$HA_PORT/pg_auto_failover?sslmode=disable"
HA_PGBACKREST_CONF=$HA_DIR/pgbackrest.conf

if [ "$(id -u)" -eq 0 ]; then
	HA_USER=${HA_USER:-${PGEMBED_USER:-nobody}}
else
	HA_USER=$(id -un)
fi

# node_dir N: the data directory of node N (1 or 2), or of the monitor (0).
node_dir() {
	if [ "$1" = 0 ]; then echo "$HA_DIR/monitor"; else echo "$HA_DIR/node$1"; fi
}
node_port() { echo $((HA_PORT + $1)); }

# The servers' malloc: internal/pgembed's serverMalloc (malloc.go says why),
# unless GLIBC_TUNABLES is set (set empty, glibc's defaults stand, as in
# pgembed).
HA_MALLOC=glibc.malloc.mmap_threshold=33554432:glibc.malloc.trim_threshold=67108864

# as_ha CMD...: runs CMD as HA_USER with pg_autoctl's files under HA_DIR/home
# (its configuration and state are found by XDG paths) and the system's
# PostgreSQL first on PATH.
as_ha() {
	local env=(env -i "HOME=$HA_DIR/home" "XDG_CONFIG_HOME=$HA_DIR/home/config"
		"XDG_DATA_HOME=$HA_DIR/home/share" "XDG_RUNTIME_DIR=$HA_DIR/home/run"
		"PATH=$HA_PG_BIN:/usr/local/bin:/usr/bin:/bin" "LC_ALL=C" "PGHOST=/tmp" "PG_CONFIG=$HA_PG_BIN/pg_config"
		"GLIBC_TUNABLES=${GLIBC_TUNABLES-$HA_MALLOC}")
	if [ "$(id -u)" -eq 0 ]; then
		local gid
		gid=$(id -g "$HA_USER")
		(cd / && setpriv --reuid="$HA_USER" --regid="$gid" --clear-groups "${env[@]}" "$@")
	else
		(cd / && "${env[@]}" "$@")
	fi
}

# ha_pid N: the pid of node N's pg_autoctl service if it runs.
ha_pid() {
	local f=$HA_DIR/run/node$1.pid pid
	[ -f "$f" ] || return 1
	pid=$(cat "$f")
	[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && grep -q pg_autoctl "/proc/$pid/cmdline" 2>/dev/null && echo "$pid"
}

# monitor_sql SQL: runs SQL on the monitor's database, unaligned output.
monitor_sql() {
	psql "postgres://$HA_USER@127.0.0.1:$HA_PORT/pg_auto_failover?sslmode=disable" -qtAX -v ON_ERROR_STOP=1 -c "$1"
}
