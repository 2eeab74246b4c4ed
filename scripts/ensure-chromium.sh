#!/usr/bin/env bash
# Makes sure Debian's Chromium is installed at /usr/bin/chromium for the
# webapp's browser journeys (webapp/e2e). Playwright cannot download a browser
# on this project's machines, so it drives the system one.
#
# Quiet and exit 0 when Chromium already runs; otherwise, as root, installs the
# Debian package `chromium` with apt-get; otherwise says what to install and
# exits 1.
set -euo pipefail

CHROMIUM=/usr/bin/chromium
PACKAGE=chromium

runs() {
	[ -x "$CHROMIUM" ] && "$CHROMIUM" --version >/dev/null 2>&1
}

if runs; then
	exit 0
fi

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "ensure-chromium: installing the Debian package '$PACKAGE' (apt-get)" >&2
	export DEBIAN_FRONTEND=noninteractive
	if apt-get update -qq && apt-get install -y -qq --no-install-recommends "$PACKAGE" >/dev/null && runs; then
		echo "ensure-chromium: $("$CHROMIUM" --version 2>/dev/null)" >&2
		exit 0
	fi
fi

cat >&2 <<MSG
ensure-chromium: $CHROMIUM is missing or does not run.
The browser journeys (make e2e) need Debian's '$PACKAGE' package. Install it as root:
    apt-get update && apt-get install -y --no-install-recommends $PACKAGE
MSG
exit 1
