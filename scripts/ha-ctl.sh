#!/usr/bin/env bash
# Runs a command on the cluster of make ha-up as its servers' user, with
# pg_autoctl's files found (HA_DIR/home) and the system's PostgreSQL on PATH:
# (paths absolute: it runs from /)
#   scripts/ha-ctl.sh pg_autoctl show state --pgdata "$PWD/.data/ha/monitor"
#   scripts/ha-ctl.sh pg_autoctl perform switchover --pgdata "$PWD/.data/ha/monitor"
#   scripts/ha-ctl.sh pgbackrest --config="$PWD/.data/ha/pgbackrest.conf" --stanza=a2e info
set -euo pipefail
source "$(dirname "$0")/ha-lib.sh"
[ $# -gt 0 ] || { echo "usage: scripts/ha-ctl.sh COMMAND [ARG...]" >&2; exit 2; }
as_ha "$@"
