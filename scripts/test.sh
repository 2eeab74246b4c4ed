#!/usr/bin/env bash
# make test: every stage, each timed (scripts/timed), then one summary line
#   make test: vet 12 s (20 s CPU), openapi-lint 4 s (3 s CPU), …, total 341 s, 610 s CPU (2 lanes)
#
# Two lanes outside CI, one in CI (TEST_LANES=1 or 2 chooses). One lane
# runs the stages one after the other, in the order below, with the output
# as it comes and one Playwright worker: what CI runs (CI=true), so that
# CI's timings and its timing-sensitive tests see one stage at a time.
# Two lanes run at once after the tools are in place: lane 1 the browser
# journeys (the build, two Playwright workers unless E2E_WORKERS says
# otherwise, the Lighthouse check); lane 2 vet, OpenAPI lint, alert rules,
# go test (-race in CI: TEST_RACE; 4 packages at once: GO_TEST_P, Makefile),
# the SDKs' unit tests, the webapp's lint and unit tests. A stage's output is printed whole
# when it ends, so the lanes' lines do not mix. Issue 37 asked for make test
# on a fresh clone within 6 minutes; one lane took 797 s there (README).
#
# A lane stops at its first failing stage; the other lane runs on.
#
# Outside CI, a stage that passed is not run again while its inputs are the
# same (scripts/test-cache.sh: the files it reads in the working tree as they
# are, and the versions of the programs it runs): it prints
#   == e2e: cached (passed at 2026-11-27 10:12:03 with these inputs; TEST_CACHE=0 runs it)
# and the summary says "e2e cached". go test's own cache does the same per
# package inside go-test (Makefile). CI=true or TEST_CACHE=0 runs every stage
# and writes nothing: CI (.ci/run) runs everything.
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/test-cache.sh
. scripts/test-cache.sh

MAKE="${MAKE:-make}"
lanes="${TEST_LANES:-}"
if [ -z "$lanes" ]; then
	if [ "${CI:-}" = true ]; then lanes=1; else lanes=2; fi
fi
stages=(vet openapi-lint alerts-test go-test sdk-test webapp-test e2e)
start=$SECONDS

export TEST_TIMES
TEST_TIMES="$(mktemp)"
logs="$(mktemp -d)"
export TC_MEMO="$logs/versions"
mkdir -p "$TC_MEMO"
trap 'rm -rf "$TEST_TIMES" "$logs"' EXIT

# The stage cache: off in CI and with TEST_CACHE=0, and when the working
# tree's git tree cannot be had (not a git checkout).
cache=1 tree=""
if [ "${CI:-}" = true ] || [ "${TEST_CACHE:-1}" = 0 ]; then
	cache=0
elif ! tree="$(tc_tree)"; then
	echo "make test: no git tree of the working tree: every stage runs"
	cache=0
fi

# cached_pass STAGE: the pass file of STAGE's inputs now, when the cache is on
# and STAGE has one (stdout); fails otherwise.
declare -A keys=()
cached_pass() {
	[ "$cache" = 1 ] && [ -n "${keys[$1]:-}" ] || return 1
	echo "$TEST_CACHE_DIR/$1-${keys[$1]}"
}
# compute_keys: every cached stage's key, and to_run the stages without a
# pass for it.
compute_keys() {
	to_run=()
	for s in "${stages[@]}"; do
		if [ "$cache" = 1 ] && [[ " ${tc_stages[*]} " == *" $s "* ]]; then
			keys[$s]="$(tc_key "$s" "$tree")" || keys[$s]=""
		fi
		if pass="$(cached_pass "$s")" && [ -f "$pass" ]; then continue; fi
		to_run+=("$s")
	done
}
compute_keys

# The tools, dependencies and the private PostgreSQL (when TEST_DATABASE_URL
# is unset) once, before any lane, so that the lanes do not race for them;
# not when every stage that runs needs none (vet alone).
if [ "${to_run[*]}" != vet ] && [ ${#to_run[@]} -gt 0 ]; then
	if ! scripts/timed tools "$MAKE" --no-print-directory test-tools; then
		echo "make test: the tools could not be installed" >&2
		exit 1
	fi
	# Installing may have changed the programs' versions (PHP was missing,
	# say): the keys again, with the versions now.
	if [ "$cache" = 1 ]; then
		rm -f "$TC_MEMO"/*
		tree="$(tc_tree)" || cache=0
		compute_keys
	fi
	if [ -z "${TEST_DATABASE_URL:-}" ] && [[ " ${to_run[*]} " == *" go-test "* || " ${to_run[*]} " == *" e2e "* ]]; then
		TEST_DATABASE_URL="$(go run ./cmd/devdb)" || exit 1
	fi
else
	echo "tools - 0" >>"$TEST_TIMES"
fi
if [ -n "${TEST_DATABASE_URL:-}" ]; then export TEST_DATABASE_URL; fi

# run_stage NAME: make NAME, timed, unless it passed with these inputs
# before; a pass is recorded when its inputs did not change while it ran.
run_stage() {
	local pass status
	if pass="$(cached_pass "$1")" && [ -f "$pass" ]; then
		echo "== $1: cached (passed at $(date -r "$pass" '+%F %T') with these inputs; TEST_CACHE=0 runs it)"
		echo "$1 cached 0" >>"$TEST_TIMES"
		return 0
	fi
	scripts/timed "$1" "$MAKE" --no-print-directory "$1"
	status=$?
	if [ "$status" -eq 0 ] && pass="$(cached_pass "$1")"; then
		if [ "$(tc_key "$1")" = "${keys[$1]}" ]; then
			mkdir -p "$TEST_CACHE_DIR" && : >"$pass"
		else
			echo "make test: $1's inputs changed while it ran: its pass is not kept"
		fi
	fi
	return "$status"
}

# stage NAME: run_stage NAME; with lanes, its output printed when it ends.
stage() {
	if [ "$lanes" -le 1 ]; then
		run_stage "$1"
		return
	fi
	local log="$logs/$1.log" status
	run_stage "$1" >"$log" 2>&1
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
	echo "make test: two lanes: e2e | vet, openapi-lint, alerts-test, go-test, sdk-test, webapp-test (E2E_WORKERS=$E2E_WORKERS); each stage's output follows when it ends"
	lane e2e &
	browser_lane=$!
	lane vet openapi-lint alerts-test go-test sdk-test webapp-test &
	go_lane=$!
	wait "$browser_lane" || status=1
	wait "$go_lane" || status=1
fi

# The summary: every stage's time in make test's order, and what failed or
# did not run.
summary=() failed=() missed=() total_cpu=0
for s in tools "${stages[@]}"; do
	read -r _ took code cpu < <(grep "^$s " "$TEST_TIMES") || {
		missed+=("$s")
		continue
	}
	case "$took" in
	cached) summary+=("$s cached") ;;
	-) ;; # tools, when nothing needed them
	*)
		summary+=("$s $took s${cpu:+ ($cpu s CPU)}")
		total_cpu=$((total_cpu + ${cpu:-0}))
		;;
	esac
	if [ "$code" -ne 0 ]; then failed+=("$s"); fi
done
line="make test: $(
	IFS=,
	echo "${summary[*]}" | sed 's/,/, /g'
), total $((SECONDS - start)) s, $total_cpu s CPU ($lanes lane$([ "$lanes" -le 1 ] || echo s))"
echo
echo "$line"
if [ ${#failed[@]} -gt 0 ]; then echo "make test: FAILED: ${failed[*]}"; fi
if [ ${#missed[@]} -gt 0 ]; then echo "make test: not run: ${missed[*]}"; fi
exit "$status"
