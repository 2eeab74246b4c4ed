#!/usr/bin/env bash
# make test: every stage, each timed (scripts/timed), then one summary line
#   make test: vet 12 s, openapi-lint 4 s, …, total 341 s (2 lanes)
#
# TEST_LANES=1 (the default) runs the stages one after the other, in the
# order below, with the output as it comes and one Playwright worker.
# TEST_LANES=2 runs two lanes at once after the tools are in
# place: lane 1 is go test -race (the longest stage), lane 2 everything
# else in order (vet, OpenAPI lint, alert rules, SDK unit tests, webapp lint
# and unit tests, the build and the browser journeys, two Playwright workers
# unless E2E_WORKERS says otherwise). A stage's output is printed whole when
# it ends, so the lanes' lines do not mix.
# On a 2-core machine the lanes barely paid (1,225 s against 1,279 s) and
# their load failed a timing test: every stage is CPU-bound there.
#
# A lane stops at its first failing stage; the other lane runs on. Nothing
# is skipped: CI (.ci/run) runs this.
set -uo pipefail
cd "$(dirname "$0")/.."

MAKE="${MAKE:-make}"
lanes="${TEST_LANES:-1}"
stages=(vet openapi-lint alerts-test go-test sdk-test webapp-test e2e)
start=$SECONDS

export TEST_TIMES
TEST_TIMES="$(mktemp)"
logs="$(mktemp -d)"
trap 'rm -rf "$TEST_TIMES" "$logs"' EXIT

# The tools, dependencies and the private PostgreSQL (when TEST_DATABASE_URL
# is unset) once, before any lane, so that the lanes do not race for them.
if ! scripts/timed tools "$MAKE" --no-print-directory test-tools; then
	echo "make test: the tools could not be installed" >&2
	exit 1
fi
if [ -z "${TEST_DATABASE_URL:-}" ]; then
	TEST_DATABASE_URL="$(go run ./cmd/devdb)" || exit 1
fi
export TEST_DATABASE_URL

# stage NAME: make NAME, timed; with lanes, its output printed when it ends.
stage() {
	if [ "$lanes" -le 1 ]; then
		scripts/timed "$1" "$MAKE" --no-print-directory "$1"
		return
	fi
	local log="$logs/$1.log" status
	scripts/timed "$1" "$MAKE" --no-print-directory "$1" >"$log" 2>&1
	status=$?
	{
		flock 9
		cat "$log"
	} 9>"$logs/print.lock"
	return "$status"
}

# lane STAGE...: the stages in order, up to the first that fails.
lane() {
	local s
	for s in "$@"; do stage "$s" || return 1; done
}

status=0
if [ "$lanes" -le 1 ]; then
	export E2E_WORKERS="${E2E_WORKERS:-1}"
	lane "${stages[@]}" || status=1
else
	export E2E_WORKERS="${E2E_WORKERS:-2}"
	echo "make test: two lanes: go-test | vet, openapi-lint, alerts-test, sdk-test, webapp-test, e2e (E2E_WORKERS=$E2E_WORKERS); each stage's output follows when it ends"
	lane go-test &
	go_lane=$!
	lane vet openapi-lint alerts-test sdk-test webapp-test e2e &
	other_lane=$!
	wait "$go_lane" || status=1
	wait "$other_lane" || status=1
fi

# The summary: every stage's time in make test's order, and what failed or
# did not run.
summary=() failed=() missed=()
for s in tools "${stages[@]}"; do
	read -r _ took code < <(grep "^$s " "$TEST_TIMES") || {
		missed+=("$s")
		continue
	}
	summary+=("$s $took s")
	if [ "$code" -ne 0 ]; then failed+=("$s"); fi
done
line="make test: $(
	IFS=,
	echo "${summary[*]}" | sed 's/,/, /g'
), total $((SECONDS - start)) s ($lanes lane$([ "$lanes" -le 1 ] || echo s))"
echo
echo "$line"
if [ ${#failed[@]} -gt 0 ]; then echo "make test: FAILED: ${failed[*]}"; fi
if [ ${#missed[@]} -gt 0 ]; then echo "make test: not run: ${missed[*]}"; fi
exit "$status"
