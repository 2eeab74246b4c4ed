#!/usr/bin/env bash
# Makes sure the tools the SDKs' tests need are here (sdk/, test/sdk):
#   - PHP >= 8.1 with the curl extension: when missing, as root, installs
#     Debian's php-cli and php-curl with apt-get (as ensure-chromium.sh does);
#   - python3 >= 3.9 and Node.js >= 18: checked, never installed;
#   - the TypeScript SDK's dependencies and build: scripts/npm-install.sh
#     (npm ci, or the copy of an earlier npm ci of the same lock file) when its
#     node_modules is missing or older than its package-lock.json, then
#     `npm run build` when dist/index.js is missing or older than a source.
# Quiet when all is there; otherwise says what is missing and exits 1.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
TS="$ROOT/sdk/typescript"
PACKAGES="php-cli php-curl"
missing=()

php_ok() {
	command -v php >/dev/null 2>&1 &&
		php -r 'exit(PHP_VERSION_ID >= 80100 && extension_loaded("curl") ? 0 : 1);' >/dev/null 2>&1
}

if [ -d "$ROOT/sdk/php" ] && ! php_ok; then
	if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "ensure-sdk-tools: installing the Debian packages $PACKAGES (apt-get)" >&2
		export DEBIAN_FRONTEND=noninteractive
		# shellcheck disable=SC2086 # the package names are words
		apt-get update -qq && apt-get install -y -qq --no-install-recommends $PACKAGES >/dev/null || true
	fi
	php_ok || missing+=("PHP >= 8.1 with curl (as root: apt-get update && apt-get install -y --no-install-recommends $PACKAGES)")
fi

if [ -d "$ROOT/sdk/python" ] &&
	! python3 -c 'import sys; sys.exit(sys.version_info < (3, 9))' >/dev/null 2>&1; then
	missing+=("python3 >= 3.9")
fi

if [ -d "$TS" ]; then
	major="$(node --version 2>/dev/null | sed -E 's/^v([0-9]+).*/\1/')"
	if [ -z "$major" ] || [ "$major" -lt 18 ]; then
		missing+=("Node.js >= 18 with npm")
	else
		"$ROOT/scripts/npm-install.sh" "$TS" >/dev/null
		if [ ! -f "$TS/dist/index.js" ] || [ -n "$(find "$TS/src" "$TS/package.json" "$TS/tsconfig.json" -newer "$TS/dist/index.js" -print -quit)" ]; then
			npm run build --prefix "$TS" >/dev/null
		fi
	fi
fi

if [ ${#missing[@]} -gt 0 ]; then
	echo "ensure-sdk-tools: the SDKs' tests need:" >&2
	printf '    %s\n' "${missing[@]}" >&2
	exit 1
fi
