#!/usr/bin/env bash
# make test's stage cache (scripts/test.sh): a stage that passed is not run
# again while its inputs are the same. Sourced by scripts/test.sh; run on its
# own it prints one key:
#
#   scripts/test-cache.sh tree            the working tree's git tree (tracked
#                                         and untracked files, not ignored ones)
#   scripts/test-cache.sh key STAGE [TREE]  STAGE's key on TREE (default: the
#                                         working tree now)
#   scripts/test-cache.sh go-build-key [TREE]  what bin/api, bin/projector and
#                                         the SDKs are built from, for the Go
#                                         tests that build or run them
#                                         (TEST_BUILD_KEY, see go-test)
#   scripts/test-cache.sh go-tools-key    the versions of the programs the Go
#                                         tests run (TEST_TOOLS_KEY)
#   scripts/test-cache.sh run STAGE COMMAND...  COMMAND unless STAGE passed
#                                         with these inputs; a pass is kept
#                                         (make check's webapp-test)
#
# A key is a SHA-256 over the stage's name, the listing (path, mode, blob
# hash) of exactly the files the stage reads, taken from the working tree as
# it is (edited, added and untracked files count; .gitignore'd ones do not),
# and the versions of the programs it runs. scripts/test.sh keeps a pass as an
# empty file $TEST_CACHE_DIR/STAGE-KEY (default
# ${XDG_CACHE_HOME:-$HOME/.cache}/a2e/test-passes), written only after the
# stage passed and only when its inputs did not change while it ran.
set -uo pipefail

TEST_CACHE_DIR="${TEST_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/a2e/test-passes}"

# The stages with a cache, in scripts/test.sh's order. vet too: go vet keeps
# its own cache, but per folder, and took 177 s in a second clone.
tc_stages=(vet openapi-lint alerts-test go-test sdk-test webapp-test e2e)

# tc_tree: the git tree of the working tree as it is, through a throwaway
# index (a copy of the real one, so that unchanged files are not re-read).
tc_tree() {
	local root index tmp tree
	root="$(git rev-parse --show-toplevel 2>/dev/null)" || return 1
	index="$(git rev-parse --git-path index)" || return 1
	tmp="$(mktemp)" || return 1
	# cp -p: the copy keeps the index's modification time, which git's
	# racy-entry check compares with each file's. A plain copy is newer than
	# an edit made in the second the index was written, so git would trust
	# that file's unchanged size and second and miss the edit (it did, in
	# test/testcache, once).
	if [ -f "$index" ]; then cp -p "$index" "$tmp"; else rm -f "$tmp"; fi
	tree="$(cd "$root" && GIT_INDEX_FILE="$tmp" git add -A . >/dev/null 2>&1 && GIT_INDEX_FILE="$tmp" git write-tree)"
	local status=$?
	rm -f "$tmp"
	[ "$status" -eq 0 ] && [ -n "$tree" ] || return 1
	echo "$tree"
}

# tc_version NAME COMMAND...: COMMAND's first line of output, or "NAME
# missing"; remembered in the directory TC_MEMO when it is set (scripts/test.sh
# asks each program once a run).
tc_version() {
	local name="$1" out
	shift
	if [ -n "${TC_MEMO:-}" ] && [ -f "$TC_MEMO/$name" ]; then
		cat "$TC_MEMO/$name"
		return
	fi
	if command -v "$1" >/dev/null 2>&1 && out="$("$@" 2>/dev/null | head -n 1)" && [ -n "$out" ]; then
		out="$name: $out"
	else
		out="$name: missing"
	fi
	if [ -n "${TC_MEMO:-}" ]; then echo "$out" >"$TC_MEMO/$name"; fi
	echo "$out"
}

# tc_postgres: the PostgreSQL whose binaries the tests start (pgembed's
# order: POSTGRES_BIN_DIR, PATH, the highest /usr/lib/postgresql/*/bin) and
# the server TEST_DATABASE_URL names is not asked: its version is the
# system's, the same binaries on this machine.
tc_postgres() {
	local bin
	if [ -n "${POSTGRES_BIN_DIR:-}" ] && [ -x "$POSTGRES_BIN_DIR/postgres" ]; then
		bin="$POSTGRES_BIN_DIR/postgres"
	elif command -v postgres >/dev/null 2>&1; then
		bin=postgres
	else
		bin="$(ls -d /usr/lib/postgresql/*/bin/postgres 2>/dev/null | sort -V | tail -n 1)"
	fi
	if [ -n "$bin" ]; then tc_version postgres "$bin" --version; else echo "postgres: missing"; fi
}

# tc_tools NAME...: the versions of these programs, one a line.
tc_tools() {
	local t
	for t in "$@"; do
		case "$t" in
		go) tc_version go go version ;;
		node) tc_version node node --version ;;
		npm) tc_version npm npm --version ;;
		python3) tc_version python3 python3 --version ;;
		php) tc_version php php --version ;;
		promtool) tc_version promtool promtool --version ;;
		postgres) tc_postgres ;;
		redis) tc_version redis redis-server --version ;;
		pg_autoctl) tc_version pg_autoctl pg_autoctl --version ;;
		pgbackrest) tc_version pgbackrest pgbackrest version ;;
		chromium) tc_version chromium chromium --version ;;
		*) echo "$t: unknown tool" ;;
		esac
	done
}

# tc_go_dirs PACKAGES...: the main module's directories these packages build
# from (their dependencies included), relative to the root, one a line.
tc_go_dirs() {
	local root
	root="$(git rev-parse --show-toplevel)" || return 1
	(cd "$root" && go list -deps -f '{{if .Module}}{{if .Module.Main}}{{.Dir}}{{end}}{{end}}' "$@") |
		sed -n "s|^$root/||p"
}

# tc_listing TREE INCLUDE EXCLUDE: the tree's files whose paths match the
# extended regular expression INCLUDE and not EXCLUDE ('' excludes nothing),
# as "mode type blob<TAB>path" lines.
tc_listing() {
	git ls-tree -r --full-tree "$1" | TC_INC="$2" TC_EXC="$3" awk -F '\t' \
		'$2 ~ ENVIRON["TC_INC"] && (ENVIRON["TC_EXC"] == "" || $2 !~ ENVIRON["TC_EXC"])'
}

# tc_dirs_regex DIR...: a regex for the files directly in these directories
# (not in their subdirectories: those are packages of their own).
tc_dirs_regex() {
	local d re=""
	for d in "$@"; do
		d="${d//./\\.}"
		re="$re|^$d/[^/]+\$"
	done
	echo "(${re#|})"
}

# tc_inputs STAGE TREE: the listing and the tool versions STAGE's result
# depends on. When in doubt a stage takes more files, not fewer.
tc_inputs() {
	local stage="$1" tree="$2" build_dirs="" tools_shared="Makefile|mk/|scripts/"
	case "$stage" in
	vet)
		# Every file but the webapp and the docs: the Go files, go.mod, and
		# what they embed (openapi.json, migrations, pages ...).
		tc_listing "$tree" '.' '^(webapp|docs)/|^README\.md$'
		tc_tools go
		;;
	openapi-lint)
		tc_listing "$tree" "^(cmd/api/openapi\\.json|test/openapi/|$tools_shared)" ''
		tc_tools node
		;;
	alerts-test)
		tc_listing "$tree" "^(deploy/prometheus/|$tools_shared)" ''
		tc_tools promtool
		;;
	go-test)
		# Everything but the webapp, which no Go test reads (cmd/api serves
		# webapp/dist only when it is built, and its tests make their own).
		tc_listing "$tree" '.' '^webapp/'
		tc_tools go node npm python3 php postgres redis pg_autoctl pgbackrest
		# A pass without the race detector is not one with it (TEST_RACE, Makefile).
		echo "race: ${TEST_RACE:-0}"
		;;
	sdk-test)
		tc_listing "$tree" "^(sdk/|cmd/api/openapi\\.json|$tools_shared)" ''
		tc_tools go node npm python3 php
		echo "race: ${TEST_RACE:-0}"
		;;
	webapp-test)
		tc_listing "$tree" "^(webapp/|$tools_shared)" ''
		tc_tools node npm
		;;
	e2e)
		# The journeys run bin/api, bin/projector and cmd/devdb built from
		# the tree, the webapp, the SDKs and their examples: every file but
		# the Go test files, the webapp's unit tests, the Go packages
		# those three programs do not build from, docs/ and README.md
		# (nothing embeds or serves them; content/pages is the site's).
		build_dirs="$(tc_go_dirs ./cmd/api ./cmd/projector ./cmd/devdb)" || return 1
		local other
		other="$(cd "$(git rev-parse --show-toplevel)" && go list -f '{{.Dir}}' ./... | sed -n "s|^$(git rev-parse --show-toplevel)/||p" | grep -vxF -f <(echo "$build_dirs"))"
		local exc='(_test\.go$|^webapp/src/.*\.test\.tsx?$|^docs/|^README\.md$)'
		if [ -n "$other" ]; then
			# shellcheck disable=SC2086
			exc="($exc|$(tc_dirs_regex $other))"
		fi
		tc_listing "$tree" '.' "$exc"
		tc_tools go node npm python3 php postgres chromium
		;;
	*)
		echo "test-cache: no cache for stage $stage" >&2
		return 1
		;;
	esac
}

# tc_key STAGE [TREE]: STAGE's key.
tc_key() {
	local tree="${2:-}" inputs
	if [ -z "$tree" ]; then tree="$(tc_tree)" || return 1; fi
	inputs="$(tc_inputs "$1" "$tree")" || return 1
	printf 'stage %s\n%s\n' "$1" "$inputs" | sha256sum | cut -c1-32
}

# tc_go_build_key [TREE]: what the Go tests that build bin/api, bin/projector,
# cmd/devdb or an SDK's runner from the tree depend on beyond their own
# imports (go test caches on those alone): the files of the Go packages the
# commands build from, the SDKs, the scripts, the migrations.
tc_go_build_key() {
	local tree="${1:-}" dirs
	if [ -z "$tree" ]; then tree="$(tc_tree)" || return 1; fi
	dirs="$(tc_go_dirs ./cmd/...)" || return 1
	# shellcheck disable=SC2086
	{
		tc_listing "$tree" "($(tc_dirs_regex $dirs)|^(sdk/|scripts/|migrations/|content/|go\\.mod|go\\.sum))" '_test\.go$'
	} | sha256sum | cut -c1-32
}

# tc_go_tools_key: the programs the Go tests start (go test does not see
# them change).
tc_go_tools_key() {
	{
		tc_tools postgres redis node python3 php pg_autoctl pgbackrest
		# Prism, for cmd/api's OpenAPI conformance cases.
		sha256sum <"$(git rev-parse --show-toplevel)/test/openapi/package-lock.json" 2>/dev/null
	} | sha256sum | cut -c1-32
}

# tc_run STAGE COMMAND...: COMMAND, unless STAGE passed before with its
# inputs now; its pass kept when it passes and its inputs did not change
# meanwhile (edits elsewhere do not matter). CI=true or TEST_CACHE=0:
# COMMAND, nothing kept.
tc_run() {
	local stage="$1" tree key pass status
	shift
	if [ "${CI:-}" = true ] || [ "${TEST_CACHE:-1}" = 0 ] || ! tree="$(tc_tree)" || ! key="$(tc_key "$stage" "$tree")"; then
		"$@"
		return
	fi
	pass="$TEST_CACHE_DIR/$stage-$key"
	if [ -f "$pass" ]; then
		echo "== $stage: cached (passed at $(date -r "$pass" '+%F %T') with these inputs; TEST_CACHE=0 runs it)"
		return 0
	fi
	"$@"
	status=$?
	if [ "$status" -eq 0 ] && [ "$(tc_key "$stage")" = "$key" ]; then
		mkdir -p "$TEST_CACHE_DIR" && : >"$pass"
	fi
	return "$status"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	cd "$(dirname "$0")/.." || exit 1
	case "${1:-}" in
	tree) tc_tree ;;
	key) tc_key "${2:?stage}" "${3:-}" ;;
	go-build-key) tc_go_build_key "${2:-}" ;;
	go-tools-key) tc_go_tools_key ;;
	run)
		shift
		tc_run "$@"
		;;
	*)
		echo "usage: scripts/test-cache.sh tree | key STAGE [TREE] | go-build-key [TREE] | go-tools-key | run STAGE COMMAND..." >&2
		exit 2
		;;
	esac
fi
