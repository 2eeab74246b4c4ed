#!/usr/bin/env bash
# Starts the scaled-out topology on this machine, for an operator to try:
# two API processes and two projector workers over NATS JetStream, limits
# shared in Redis, one PostgreSQL. It uses the local services (PostgreSQL on
# 5432, NATS with JetStream on 4222, Redis on 6379) unless the variables
# below say otherwise, and stops everything on Ctrl-C.
#
#   api-0        http://localhost:8080   /metrics 127.0.0.1:9091   runs the mail sender, pruner, sweepers
#   api-1        http://localhost:8081   /metrics 127.0.0.1:9093   -mail-sender=false; pruner and sweepers too
#   projector-0  /metrics 127.0.0.1:9090
#   projector-1  /metrics 127.0.0.1:9094
#
# Variables: PG_ADMIN_URL (a database to connect to for creating the
# cluster's), CLUSTER_DB (default a2e_cluster), REDIS_URL, NATS_URL,
# CLUSTER_LOGS (default .data/cluster).
set -euo pipefail
cd "$(dirname "$0")/.."

PG_ADMIN_URL=${PG_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable}
CLUSTER_DB=${CLUSTER_DB:-a2e_cluster}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}
NATS_URL=${NATS_URL:-nats://127.0.0.1:4222}
CLUSTER_LOGS=${CLUSTER_LOGS:-.data/cluster}

need() { command -v "$1" >/dev/null 2>&1 || { echo "run-cluster: $1 is needed ($2)" >&2; exit 1; }; }
need psql "to create the cluster's database"
reachable() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }
hostport() { local hp=${1#*://}; hp=${hp#*@}; hp=${hp%%/*}; echo "${hp%%\?*}"; }
for svc in "Redis:$REDIS_URL" "NATS:$NATS_URL"; do
  name=${svc%%:*}; url=${svc#*:}; hp=$(hostport "$url")
  reachable "${hp%:*}" "${hp##*:}" || { echo "run-cluster: $name is not answering at $url" >&2; exit 1; }
done

if ! psql "$PG_ADMIN_URL" -qtAc "SELECT 1 FROM pg_database WHERE datname = '$CLUSTER_DB'" | grep -q 1; then
  psql "$PG_ADMIN_URL" -qc "CREATE DATABASE $CLUSTER_DB"
fi
DATABASE_URL=$(printf '%s' "$PG_ADMIN_URL" | sed -E "s#/[^/?]*(\\?|$)#/$CLUSTER_DB\\1#")

make --no-print-directory build
mkdir -p "$CLUSTER_LOGS"
export APP_ENV=development DATABASE_URL REDIS_URL NATS_URL MESSAGE_TRANSPORT=nats
DATABASE_URL=$DATABASE_URL ./bin/api migrate

pids=()
stop() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; }
trap stop EXIT INT TERM
start() { local name=$1; shift; "$@" >"$CLUSTER_LOGS/$name.log" 2>&1 & pids+=($!); echo "$name: pid $!, log $CLUSTER_LOGS/$name.log"; }
METRICS_ADDR=127.0.0.1:9091 start api-0 ./bin/api -addr :8080
METRICS_ADDR=127.0.0.1:9093 start api-1 ./bin/api -addr :8081 -mail-sender=false
PROJECTOR_METRICS_ADDR=127.0.0.1:9090 start projector-0 ./bin/projector
PROJECTOR_METRICS_ADDR=127.0.0.1:9094 start projector-1 ./bin/projector
echo "cluster up: http://localhost:8080 and http://localhost:8081 (Ctrl-C stops it)"
wait -n "${pids[@]}" || true
echo "run-cluster: a process stopped; see $CLUSTER_LOGS" >&2
