#!/usr/bin/env bash
# Prints the Go packages whose tests need no outside service: those whose
# test binaries import none of internal/testing's servers (PostgreSQL, NATS,
# Redis, stripe-mock, SMTP, the built binaries, the fault proxy) nor
# internal/pgembed. `make check` runs these; `make test` runs every package.
set -euo pipefail
cd "$(dirname "$0")/.."
module="$(go list -m)"
services="^$module/internal/(testing/(testdb|natstest|redistest|stripemock|stripetest|smtptest|testbin|faultproxy|accountstest|downloadstest)|pgembed)\$"
# -test lists each package's test binary ("p.test") with every package it
# links; a package that is itself one of those servers is left out too.
go list -test -f '{{if and (eq .Name "main") (not .ForTest)}}{{.ImportPath}} {{join .Deps " "}}{{end}}' ./... |
	while read -r bin deps; do
		pkg="${bin%.test}"
		[ "$pkg" != "$bin" ] || continue
		# No pipe into grep -q: it stops at the first match, and with
		# pipefail the writer's SIGPIPE would list a package that has one.
		list="$pkg $deps"
		if ! grep -Eq "$services" <<<"${list// /$'\n'}"; then echo "$pkg"; fi
	done
