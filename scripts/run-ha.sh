#!/usr/bin/env bash
# make run-ha: the product on the high-availability cluster of make ha-up
# (started here when it is not running): two API processes and a projector,
# all connected with the multi-host DATABASE_URL of HA_DIR/env, so they follow
# the primary through a failover; limits shared in Redis. Ctrl-C stops the
# processes (the cluster keeps running; make ha-down stops it).
#
#   api-0      http://localhost:8080   /metrics 127.0.0.1:9091   mail sender, pruner, sweepers
#   api-1      http://localhost:8081   /metrics 127.0.0.1:9093   -mail-sender=false
#   projector  /metrics 127.0.0.1:9090
#
# Variables: REDIS_URL (redis://127.0.0.1:6379), HA_LOGS (HA_DIR/log), and
# those of scripts/ha-lib.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/ha-lib.sh
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
HA_LOGS=${HA_LOGS:-$HA_DIR/log}

hp=${REDIS_URL#*://}; hp=${hp#*@}; hp=${hp%%/*}
(exec 3<>"/dev/tcp/${hp%:*}/${hp##*:}") 2>/dev/null || { echo "run-ha: Redis is not answering at $REDIS_URL" >&2; exit 1; }

scripts/ha-up.sh
set -a
# shellcheck source=/dev/null
source "$HA_DIR/env"
set +a
make --no-print-directory build
export APP_ENV=development REDIS_URL
./bin/api migrate

pids=()
stop() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; }
trap stop EXIT INT TERM
start() { local name=$1; shift; "$@" >"$HA_LOGS/$name.log" 2>&1 & pids+=($!); echo "$name: pid $!, log $HA_LOGS/$name.log"; }
METRICS_ADDR=127.0.0.1:9091 start api-0 ./bin/api -addr :8080
METRICS_ADDR=127.0.0.1:9093 start api-1 ./bin/api -addr :8081 -mail-sender=false
PROJECTOR_METRICS_ADDR=127.0.0.1:9090 start projector ./bin/projector
echo "run-ha: up on http://localhost:8080 and http://localhost:8081 (Ctrl-C stops it; make ha-down stops the cluster)"
wait -n "${pids[@]}" || true
echo "run-ha: a process stopped; see $HA_LOGS" >&2
