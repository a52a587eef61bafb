# Zaxy. `make run` provisions the local database, migrates and serves; `make test` runs the suite.
SHELL := /bin/bash
GO ?= go
export PATH := $(PATH):/usr/local/go/bin

# Starts (or reuses) the database and exports ZAXY_ADMIN_DATABASE_URL and ZAXY_DATABASE_URL.
DB_ENV = eval "$$(bash testcontainers/postgres.sh start | sed -n 's/^\(ZAXY_[A-Z_]*\)=\(.*\)$$/export \1="\2"/p')"

.PHONY: run test fuzz db db-stop build bench vet

build:
	$(GO) build -o bin/zaxy ./cmd/zaxy

db:
	@bash testcontainers/postgres.sh start

db-stop:
	@bash testcontainers/postgres.sh stop

run: build
	@$(DB_ENV) && ZAXY_DATABASE_URL="$$ZAXY_ADMIN_DATABASE_URL" ./bin/zaxy migrate && ZAXY_AUTH=$${ZAXY_AUTH:-off} ./bin/zaxy serve

test:
	@$(DB_ENV) && ZAXY_TEST_DATABASE_URL="$$ZAXY_ADMIN_DATABASE_URL" $(GO) test -count=1 -timeout 20m ./...
	@$(MAKE) --no-print-directory fuzz

# The boundary parsers, fuzzed for FUZZTIME each (their seed corpora also run in every go test):
# the Cypher filter, the event decoder, the strict JSON check and the redactor (text and JSON).
FUZZTIME ?= 15s
FUZZ_TARGETS = FuzzCypherFilter:./graph FuzzDecodeAppendBody:./eventloom FuzzCheck:./internal/strictjson FuzzRedact:./redact FuzzJSON:./redact

fuzz:
	@for t in $(FUZZ_TARGETS); do \
	  echo "fuzz $${t%%:*} ($(FUZZTIME))"; \
	  $(GO) test -run '^$$' -fuzz "^$${t%%:*}$$" -fuzztime $(FUZZTIME) "$${t#*:}" || exit 1; \
	done

vet:
	$(GO) vet ./...

bench: build
	@$(DB_ENV) && ZAXY_DATABASE_URL="$$ZAXY_ADMIN_DATABASE_URL" ./bin/zaxy bench append
	@$(DB_ENV) && ZAXY_TEST_DATABASE_URL="$$ZAXY_ADMIN_DATABASE_URL" $(GO) test -run '^$$' -bench . -benchtime 3s ./...
