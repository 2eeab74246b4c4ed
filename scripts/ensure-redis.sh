#!/usr/bin/env bash
# Installs Debian's redis-server for the tests (internal/testing/redistest starts a
# private one from it) when the machine has none. Nothing is done when it is
# there, or when REDIS_TEST_URL names a server to use instead.
set -euo pipefail
if [ -n "${REDIS_TEST_URL:-}" ] || command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ]; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "ensure-redis: redis-server is missing; install Debian's redis-server (apt-get install redis-server) or set REDIS_TEST_URL" >&2
  exit 1
fi
echo "ensure-redis: installing Debian's redis-server"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null
