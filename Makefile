# Sightline: `make run` serves the API with demo data; `make test` runs every test.
# Both start what they need: a project-local Postgres 15 and the embedded ClickHouse
# engine behind its HTTP endpoint, unless DATABASE_URL / CLICKHOUSE_URL name servers
# of your own, in which case those are used and nothing local is started.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

LOCAL_DATABASE_URL := $(shell dev/postgres.sh url)
LOCAL_CLICKHOUSE_URL := $(shell dev/clickhouse.sh url)
export DATABASE_URL ?= $(LOCAL_DATABASE_URL)
export CLICKHOUSE_URL ?= $(LOCAL_CLICKHOUSE_URL)
export SIGHTLINE_LISTEN ?= 127.0.0.1:8080

BIN := .local/bin/sightline
GO_SOURCES := $(shell find . -path ./.local -prune -o -name '*.go' -print) go.mod go.sum

.PHONY: help
help:
	@echo "make run     start local engines, migrate, create a demo key and serve the API"
	@echo "make test    start local engines and run the whole test suite"
	@echo "make bench   run every benchmark in benchmarks/ and print its figures"
	@echo "make fuzz    run every fuzz target for FUZZTIME each (default 1m)"
	@echo "make stop    stop the local engines"

$(BIN): $(GO_SOURCES)
	go build -o $(BIN) ./cmd/sightline

.PHONY: deps
deps:
	@command -v go >/dev/null || { echo "Go 1.26 is required" >&2; exit 1; }
	@command -v npm >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm; }
	@# The dashboard's browser tests drive headless Chromium; they fail without it.
	@command -v chromium >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }
	go mod download

# engines starts only what the environment does not already point elsewhere.
.PHONY: engines
engines: deps
	@if [ "$$DATABASE_URL" = "$(LOCAL_DATABASE_URL)" ]; then dev/postgres.sh start; fi
	@if [ "$$CLICKHOUSE_URL" = "$(LOCAL_CLICKHOUSE_URL)" ]; then dev/clickhouse.sh start; fi

.PHONY: migrate
migrate: engines $(BIN)
	$(BIN) migrate

.PHONY: run
run: migrate
	@$(BIN) admin demo --base-url "http://$$SIGHTLINE_LISTEN"
	@echo "Backfilling 90 days of simulated history for the demo organization..."
	@$(BIN) backfill --days 90
	@echo
	exec $(BIN) run

.PHONY: test
test: engines
	@unformatted=$$(gofmt -l $$(find . -path ./.local -prune -o -name '*.go' -print)); \
		if [ -n "$$unformatted" ]; then echo "not gofmt-formatted:" $$unformatted >&2; exit 1; fi
	go vet ./...
	go test -race -count=1 -timeout 15m ./...

.PHONY: bench
bench: migrate
	benchmarks/me.sh
	benchmarks/tracked.sh
	benchmarks/scheduler.sh
	CHECKS_PASSES=20000 benchmarks/checks.sh
	CHECKS_PASSES=20000 CHECKS_LATENCY=5s-30s CHECKS_WORKERS=10000 benchmarks/checks.sh
	go run ./benchmarks/ingest
	go run ./benchmarks/ingest -passes 100000 -workers 8 -per-write 1000 -in-flight 4 -flush-rows 200000
	go run ./benchmarks/ingest -passes 100000 -workers 8 -per-write 1000 -in-flight 4 -flush-rows 200000 -prepared
	go run ./benchmarks/extraction -n 5000
	benchmarks/analytics.sh

# fuzz runs each fuzz target in turn for FUZZTIME (about 15 minutes in all at
# the default); the targets need no engines. New findings land in the
# package's testdata/fuzz and fail the run.
FUZZTIME ?= 1m
.PHONY: fuzz
fuzz:
	@for dir in $$(grep -rl --include='*_test.go' '^func Fuzz' . | xargs -n1 dirname | sort -u); do \
		for target in $$(grep -h -o '^func Fuzz[A-Za-z0-9_]*' $$dir/*_test.go | cut -c6- | sort); do \
			echo "== $$dir $$target ($(FUZZTIME))"; \
			go test $$dir -run '^$$' -fuzz "^$$target$$" -fuzztime $(FUZZTIME) || exit 1; \
		done; \
	done

.PHONY: stop
stop:
	dev/clickhouse.sh stop
	dev/postgres.sh stop
