#!/usr/bin/env bash
# scripts/npm-install.sh DIR: DIR's pinned npm dependencies (DIR/package-lock.json)
# in DIR/node_modules, when it is missing or older than the lock file.
#
# A fresh clone has no node_modules: `npm ci` there took 9-25 s per folder
# from npm's own cache (webapp 25 s, test/openapi 9 s, sdk/typescript 6 s),
# before any test could start (issue 37: make test on a fresh clone). So the
# first `npm ci` of a lock file keeps a copy of the node_modules it made,
# under NODE_MODULES_CACHE_DIR (default ${XDG_CACHE_HOME:-~/.cache}/a2e/node_modules),
# named by the lock file's hash, Node's version and the platform; the next
# clone with the same lock file copies it (cp -a, about 2 s for the webapp's
# 470 MB) instead of installing. What is copied is what `npm ci` made from
# that same lock file: nothing in it names the folder it was made in.
# NODE_MODULES_CACHE=0 installs with `npm ci` every time and keeps nothing.
#
# Quiet unless it installs; exits non-zero when npm fails.
set -euo pipefail

dir="${1:?usage: scripts/npm-install.sh DIR}"
lock="$dir/package-lock.json"
[ -f "$lock" ] || exit 0
nm="$dir/node_modules"
if [ -d "$nm" ] && ! [ "$lock" -nt "$nm/.package-lock.json" ]; then
	exit 0
fi

npm_ci() { npm ci --prefix "$dir" --no-audit --no-fund "$@"; }

if [ "${NODE_MODULES_CACHE:-1}" = 0 ]; then
	npm_ci
	exit 0
fi

root="${NODE_MODULES_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/a2e/node_modules}"
key="$({
	sha256sum <"$lock"
	node --version
	uname -sm
} | sha256sum | cut -c1-32)"
# Named by the folder too, so that old copies of one folder can be dropped.
root_dir="$(cd "$(dirname "$0")/.." && pwd)"
rel="$(realpath -m --relative-to="$root_dir" "$dir")"
slug="$(printf '%s' "$rel" | tr -c 'A-Za-z0-9' '_')"
kept="$root/$slug-$key"

if [ -f "$kept/.complete" ]; then
	rm -rf "$nm"
	tmp="$(mktemp -d "$dir/.node_modules.XXXXXX")"
	if cp -a "$kept/node_modules" "$tmp/" && mv "$tmp/node_modules" "$nm"; then
		rmdir "$tmp"
		# The copy keeps the kept files' times; the lock file of this clone is
		# newer, which would read as "out of date" next time.
		touch "$nm/.package-lock.json" "$kept"
		echo "npm-install: $dir/node_modules copied from $kept (the same package-lock.json installed before)"
		exit 0
	fi
	rm -rf "$tmp" "$nm"
	echo "npm-install: copying $kept failed: installing with npm ci" >&2
fi

npm_ci
# Kept only whole: copied beside, then renamed; .complete written last.
mkdir -p "$root"
tmp="$(mktemp -d "$root/.tmp.XXXXXX")"
if cp -a "$nm" "$tmp/node_modules" && : >"$tmp/.complete" && ! [ -f "$kept/.complete" ]; then
	rm -rf "$kept"
	mv -T "$tmp" "$kept" || rm -rf "$tmp"
else
	rm -rf "$tmp"
fi
# The two newest copies of this folder's node_modules stay; older ones go.
find "$root" -mindepth 1 -maxdepth 1 -name "$slug-*" -printf '%T@ %p\n' | sort -rn | tail -n +3 | cut -d' ' -f2- |
	while read -r old; do rm -rf "$old"; done
