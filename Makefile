# The two commands a newcomer needs: `make run` and `make test`.
SHELL := /bin/bash
.DEFAULT_GOAL := help

GO ?= go
# Every go command make runs (builds, vet, tests, go run) and the ones it
# starts (the tests' own go build) with -trimpath: Go's build cache then keys
# a package by its import path, not by the clone's folder, so a new clone
# reuses what another clone compiled, and go test's cache serves its results
# (issue 37: make test on a fresh clone). The binaries name files by module
# path (github.com/a2e-automation/app/cmd/api/...) in stack traces.
# GOFLAGS as go itself sees it (the environment, else go env -w's file),
# plus -trimpath.
export GOFLAGS := $(strip $(filter-out -trimpath,$(shell $(GO) env GOFLAGS 2>/dev/null)) -trimpath)
NPM ?= npm
WEBAPP := webapp

include mk/pg.mk

OPENAPI_TOOLS := test/openapi

.PHONY: pgo help deps webapp-deps openapi-deps openapi-lint sdk-tools sdk-test build webapp-build run run-cluster ha-up ha-down run-ha backup-drill alerts-test ha-tools bench-load test test-tools check go-test go-unit webapp-test e2e e2e-run lighthouse check-go check-webapp chromium redis vet bench clean

help:
	@echo "make run    - start the product on http://localhost:8080 (private PostgreSQL under .data/)"
	@echo "make test   - go vet, OpenAPI lint, go test (-race in CI or with TEST_RACE=1; real PostgreSQL, Prism, SDK conformance), SDK unit tests, webapp lint and tests, browser journeys; each stage timed (outside CI in two lanes: the journeys beside go test)"
	@echo "make check  - the quick loop: go vet, webapp lint, Go tests that need no outside service, webapp unit tests (no browser, no database)"
	@echo "make sdk-test - the four SDKs' own unit tests (sdk/)"
	@echo "make e2e    - the browser journeys alone (Playwright, Debian's Chromium, the real server), then the Lighthouse check"
	@echo "make lighthouse - the Lighthouse check alone: the scores of the landing page and dashboard (mobile, desktop) against the floors"
	@echo "make build  - bin/api, bin/projector and the built webapp"
	@echo "make run-cluster - two APIs and two projectors over NATS and Redis, on the local services"
	@echo "make ha-up / ha-down - a pg_auto_failover monitor, primary and synchronous standby under .data/ha (writes .data/ha/env)"
	@echo "make run-ha - two APIs and a projector on that cluster"
	@echo "make backup-drill - pgBackRest backup, point-in-time restore into a fresh server, ledger and read-table checks"
	@echo "make bench  - benchmarks (ledger spend cost by stream length)"
	@echo "make bench-load - /v1/listings under load beside the SQL floor, projector outage, rebuild"

deps: pg-binaries webapp-deps
	$(GO) mod download

# npm ci when node_modules is missing or older than the lock file, or a copy
# of what npm ci made from the same lock file before (scripts/npm-install.sh;
# NODE_MODULES_CACHE=0 always runs npm ci).
webapp-deps:
	@scripts/npm-install.sh $(WEBAPP)

# Prism (the OpenAPI conformance cases in go-test) and Redocly (openapi-lint),
# pinned in test/openapi/package-lock.json.
openapi-deps:
	@scripts/npm-install.sh $(OPENAPI_TOOLS)

# Redocly's recommended rules, all as errors (test/openapi/redocly.yaml).
openapi-lint: openapi-deps
	cd $(OPENAPI_TOOLS) && REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true \
		./node_modules/.bin/redocly lint --config redocly.yaml ../../cmd/api/openapi.json

webapp-build: webapp-deps
	@if [ -f $(WEBAPP)/package.json ]; then $(NPM) run --prefix $(WEBAPP) build; fi

build: webapp-build
	$(GO) build -o bin/api ./cmd/api
	$(GO) build -o bin/projector ./cmd/projector

# make run is development: the dev mailbox, the simulated provider and the
# development secret. The binaries alone default to production rules.
# Stopped (Ctrl-C), bin/api finishes its work and exits, then the private
# PostgreSQL it started under DATA_DIR/pg is stopped too (none when
# DATABASE_URL is set); the shell waits for both instead of dying with make.
run: pg-binaries build
	@trap : INT TERM; APP_ENV=development ./bin/api -with-projector; status=$$?; \
	if [ -z "$$DATABASE_URL" ]; then $(GO) run ./cmd/devdb -data "$${DATA_DIR:-.data}/pg" -stop; fi; \
	exit $$status

# Two APIs and two projector workers over NATS JetStream and Redis, against
# the local services (README, "Running several processes").
run-cluster:
	@scripts/run-cluster.sh

# The high-availability cluster (docs/operations.md): pg_auto_failover with a
# synchronous standby, WAL archived by pgBackRest, under HA_DIR (.data/ha).
# Installs Debian's pg-auto-failover-cli, postgresql-15-auto-failover and
# pgbackrest when missing. make bench-load against it:
#   set -a; . .data/ha/env; set +a; make bench-load   (BENCH_DATABASE_URL)
ha-up:
	@scripts/ha-up.sh

ha-down:
	@scripts/ha-down.sh

# Two APIs and a projector on the cluster that make ha-up started.
run-ha:
	@scripts/run-ha.sh

# The restore drill (test/ha TestBackupDrill, also in go-test): a cluster of
# its own, a pgBackRest backup, spends, a point-in-time restore into a fresh
# server, bin/api on it, the ledger and every read table checked.
backup-drill: pg-binaries
	@scripts/ensure-ha-tools.sh
	$(GO) test -count=1 -v -timeout 10m -run '^TestBackupDrill$$' ./test/ha

# The Prometheus alert rules (deploy/prometheus) and their unit tests;
# installs Debian's prometheus (for promtool) when missing.
alerts-test:
	@scripts/ensure-ha-tools.sh promtool
	promtool check rules deploy/prometheus/alerts.yml
	promtool test rules deploy/prometheus/alerts_test.yml

# pg_auto_failover and pgBackRest for test/ha (the failover under load, the
# backup drill): installed when missing, else go-test stops with the reason.
ha-tools:
	@scripts/ensure-ha-tools.sh

vet:
	$(GO) vet ./...

# go test (with -race in CI) and its output as plain go test prints it, then the slowest packages
# and tests (cmd/testtimes reads go test -json).
# Outside CI go test's cache serves the packages whose inputs did not change
# ("(cached)"): their imports, the files they open and the environment they
# read, which includes TEST_BUILD_KEY (the files bin/api, bin/projector and
# the SDKs are built from, for the tests that build or run them) and
# TEST_TOOLS_KEY (PostgreSQL's, Redis's, PHP's ... versions), both from
# scripts/test-cache.sh. CI=true or TEST_CACHE=0 runs every test (-count=1).
GO_TEST_COUNT = $(if $(or $(filter true,$(CI)),$(filter 0,$(TEST_CACHE))),-count=1,)
# The race detector: on in CI (CI=true), off in a developer's make test unless
# TEST_RACE=1. Every test runs either way; -race made cmd/api's tests 100 s
# (57 s CPU) against 79 s (23 s CPU) without it, and every package's test
# binary a second build, the largest part of make test's 6 minutes left
# (issue 37, docs/testing-speed.md). CI keeps running everything with it.
TEST_RACE ?= $(if $(filter true,$(CI)),1,0)
export TEST_RACE
GO_TEST_RACE = $(if $(filter 1,$(TEST_RACE)),-race,)
# How many packages go test runs at once (-p): 4 outside CI, go's default (the
# number of CPUs) in CI. The slow packages (cmd/api, test/ha, test/sdk) mostly
# wait for servers they start: go-test used 138 s of CPU in 333 s of wall time
# with 2 at once on 2 cores (issue 37, docs/testing-speed.md).
GO_TEST_P ?= $(if $(filter true,$(CI)),,4)
GO_TEST_PACKAGES = $(if $(GO_TEST_P),-p $(GO_TEST_P),)

go-test: pg-binaries redis openapi-deps sdk-tools ha-tools
	@set -o pipefail; url="$${TEST_DATABASE_URL:-$$($(GO) run ./cmd/devdb)}" && \
	build_key="$$(scripts/test-cache.sh go-build-key)" && tools_key="$$(scripts/test-cache.sh go-tools-key)" && \
	TEST_DATABASE_URL="$$url" TEST_BUILD_KEY="$$build_key" TEST_TOOLS_KEY="$$tools_key" \
	$(GO) test $(GO_TEST_RACE) $(GO_TEST_PACKAGES) $(GO_TEST_COUNT) -json -timeout 20m ./... | $(GO) run ./cmd/testtimes

# The Go tests that need no outside service: the packages whose tests import
# none of internal/testing's servers (scripts/unit-packages.sh), without -race.
# go test's cache serves unchanged packages, as in go-test; CI=true or
# TEST_CACHE=0 runs them all (-count=1).
go-unit:
	$(GO) test $(GO_TEST_COUNT) $$(scripts/unit-packages.sh)

# ESLint (bulletproof-react's import zones, webapp/eslint.config.js), then Vitest.
webapp-test: webapp-deps
	@if [ -f $(WEBAPP)/package.json ]; then $(NPM) run lint --prefix $(WEBAPP) && $(NPM) test --prefix $(WEBAPP); fi

# Browser journeys (webapp/e2e) against bin/api on a fresh database of the
# TEST_DATABASE_URL server (else the private one), in Debian's Chromium,
# then the Lighthouse check (its own project, which depends on the
# journeys', so it runs last with nothing beside it; its mobile runs'
# CPU slowdown is calibrated to the machine's benchmark index).
e2e: pg-binaries build chromium sdk-tools e2e-run

e2e-run:
	@url="$${TEST_DATABASE_URL:-$$($(GO) run ./cmd/devdb)}" && \
	TEST_DATABASE_URL="$$url" $(NPM) run e2e --prefix $(WEBAPP)

# The Lighthouse check alone (webapp/e2e/lighthouse.e2e.ts): landing and
# dashboard, mobile and desktop, against bin/api, without the journeys.
lighthouse: pg-binaries build chromium
	@url="$${TEST_DATABASE_URL:-$$($(GO) run ./cmd/devdb)}" && \
	TEST_DATABASE_URL="$$url" $(NPM) run e2e --prefix $(WEBAPP) -- --project=lighthouse --no-deps

chromium:
	@scripts/ensure-chromium.sh

# Debian's redis-server, for the tests' private Redis (internal/testing/redistest).
redis:
	@scripts/ensure-redis.sh

# The SDKs' tools (PHP with curl from Debian, when missing; the TypeScript
# SDK's build) for their unit tests and for test/sdk's conformance cases.
sdk-tools:
	@scripts/ensure-sdk-tools.sh

# Each SDK's own unit tests, in its own runner (sdk/).
sdk-test: sdk-tools
	@scripts/sdk-test.sh

# Everything, each stage timed, then a summary line (scripts/test.sh).
# Outside CI two lanes: the browser journeys (two Playwright workers) and
# the webapp's tests in one, vet, lint, go test and the SDKs in the
# other; CI=true runs one lane, the stages one after another with one
# Playwright worker (TEST_LANES=1 or 2 chooses). Outside CI a stage that
# passed with the same inputs (the files it reads in the working tree, the
# programs' versions: scripts/test-cache.sh) prints "cached" instead of
# running; CI=true or TEST_CACHE=0 runs everything.
test:
	@TEST_LANES=$(TEST_LANES) MAKE="$(MAKE)" scripts/test.sh

# What the stages need, installed once before the lanes start.
test-tools: pg-binaries redis openapi-deps sdk-tools ha-tools webapp-deps chromium
	@scripts/ensure-ha-tools.sh promtool # here too: the stage keys are taken after the tools

# The loop a developer lives in (target 90 s; as a real run, TEST_CACHE=0, on
# the shared 2 cores: 35-45 s at load 2-6, 50-57 s of CPU, against 73-156 s
# and 119-146 s of CPU before Vitest's shared module graph: README): go vet and the
# Go tests that need no outside service in one lane, the webapp's lint and
# unit tests in the other. No browser, no database. The webapp's half is
# make test's stage cache (scripts/test-cache.sh): skipped while webapp/ is as
# it was when it last passed (here or in make test); TEST_CACHE=0 runs it.
check: webapp-deps
	@$(MAKE) --no-print-directory -j2 --output-sync=recurse check-go check-webapp

check-webapp:
	@scripts/test-cache.sh run webapp-test $(MAKE) --no-print-directory webapp-test

check-go: vet go-unit

# The spend path under load beside the SQL floor (../shared/perf), on a
# durable server: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else a private
# server under .data/benchpg with fsync on. Needs pgbench. BENCH_FLAGS passes
# flags on, e.g. BENCH_FLAGS="-pprof prof -clients 16,64".
# BENCH_COMPARE_DATABASE_URL: a second server, run side by side with the first
# (levels only, rounds interleaved), e.g. the ha-up pair beside a single node.
bench-load: pg-binaries build
	@url="$${BENCH_DATABASE_URL:-$${TEST_DATABASE_URL:-$$($(GO) run ./cmd/devdb -data .data/benchpg -fast=false)}}" && \
	$(GO) run ./cmd/benchload -server "$$url" -floor ../shared/perf $(BENCH_FLAGS)

# Profile-guided optimisation: bin/api's and bin/projector's CPU profiles
# under bench-load at 16 and 64 clients, merged into each main package's
# default.pgo, which go build uses from then on (docs/benchmarks.md, PGO).
# Run it on a quiet machine and commit the two files. 20 s levels: an 8 s
# level gives the profile too few samples (about 1.5 s of CPU per binary).
pgo: pg-binaries build
	@rm -rf .data/pgo && mkdir -p .data/pgo
	@url="$${BENCH_DATABASE_URL:-$${TEST_DATABASE_URL:-$$($(GO) run ./cmd/devdb -data .data/benchpg -fast=false)}}" && \
	$(GO) run ./cmd/benchload -server "$$url" -floor ../shared/perf -clients 16,64 -seconds 20 -pprof .data/pgo
	$(GO) tool pprof -proto .data/pgo/api-16clients.pprof .data/pgo/api-64clients.pprof > cmd/api/default.pgo
	$(GO) tool pprof -proto .data/pgo/projector-16clients.pprof .data/pgo/projector-64clients.pprof > cmd/projector/default.pgo
	@echo "pgo: wrote cmd/api/default.pgo and cmd/projector/default.pgo"

bench: pg-binaries
	@url="$${TEST_DATABASE_URL:-$$($(GO) run ./cmd/devdb)}" && \
	TEST_DATABASE_URL="$$url" $(GO) test -run '^$$' -bench . -benchtime 2002x ./...

clean:
	rm -rf bin $(WEBAPP)/dist
