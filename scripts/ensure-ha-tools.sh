#!/usr/bin/env bash
# Makes sure the tools of the high-availability cluster are installed
# (docs/operations.md): pg_auto_failover (pg_autoctl and the monitor's
# extension for the system's PostgreSQL 15) and pgBackRest; with `promtool`
# as an argument, Prometheus's promtool too (the alert rules' tests).
#
# Quiet when all is there; otherwise, as root, installs the Debian packages
# with apt-get (as ensure-sdk-tools.sh does for PHP); otherwise, or when the
# install fails, says what is missing and exits 1. Never skips.
set -euo pipefail

PG_MAJOR=${HA_PG_MAJOR:-15}
declare -A have=(
	[pg-auto-failover-cli]="command -v pg_autoctl"
	[postgresql-$PG_MAJOR-auto-failover]="test -f /usr/share/postgresql/$PG_MAJOR/extension/pgautofailover.control"
	[pgbackrest]="command -v pgbackrest"
)
want=(pg-auto-failover-cli "postgresql-$PG_MAJOR-auto-failover" pgbackrest)
if [ "${1:-}" = promtool ]; then
	have[prometheus]="command -v promtool"
	want=(prometheus)
fi

missing() {
	local p out=()
	for p in "${want[@]}"; do
		bash -c "${have[$p]}" >/dev/null 2>&1 || out+=("$p")
	done
	echo "${out[@]:-}"
}

todo=$(missing)
[ -z "$todo" ] && exit 0

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "ensure-ha-tools: installing the Debian packages $todo (apt-get)" >&2
	export DEBIAN_FRONTEND=noninteractive
	# shellcheck disable=SC2086 # the package names are words
	if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends $todo >/dev/null; }; then
		echo "ensure-ha-tools: apt-get install $todo failed" >&2
	fi
	# Debian's prometheus package starts a server; this machine only needs promtool.
	if [[ " $todo " == *" prometheus "* ]] && command -v systemctl >/dev/null 2>&1; then
		systemctl disable --now prometheus >/dev/null 2>&1 || true
	fi
	todo=$(missing)
	[ -z "$todo" ] && exit 0
fi

cat >&2 <<MSG
ensure-ha-tools: missing: $todo
Install them as root:
    apt-get update && apt-get install -y --no-install-recommends $todo
MSG
exit 1
