#!/usr/bin/env bash
# Runs each SDK's own unit tests, for the SDKs that are in sdk/; every one
# runs even when an earlier one fails, and the script fails if any did.
# The tools come from scripts/ensure-sdk-tools.sh. The conformance cases
# against the real bin/api are the Go test test/sdk (go test ./test/sdk).
set -uo pipefail

cd "$(dirname "$0")/.."
failed=()

# suite NAME DIR COMMAND...: runs COMMAND when sdk/DIR exists.
suite() {
	local name="$1" dir="$2"
	shift 2
	[ -d "sdk/$dir" ] || return 0
	echo "== $name: $*"
	"$@" || failed+=("$name")
}

# Not `npm test`, which rebuilds dist/ first: ensure-sdk-tools.sh (make
# sdk-tools) has built it when stale, and in make test's other lane test/sdk's
# runners and the webhooks journey read it while these run.
suite TypeScript typescript bash -c 'cd sdk/typescript && node --test test/*.test.mjs'

suite Python python python3 -m unittest discover -s sdk/python/tests -t sdk/python
suite PHP php php sdk/php/tests/run.php
# -race in CI and with TEST_RACE=1 (the Makefile's go-test does the same).
race=""
if [ "${TEST_RACE:-$([ "${CI:-}" = true ] && echo 1)}" = 1 ]; then race=-race; fi
suite Go go bash -c "cd sdk/go && go vet ./... && go test $race ./..."


if [ ${#failed[@]} -gt 0 ]; then
	echo "sdk-test: failed: ${failed[*]}" >&2
	exit 1
fi
