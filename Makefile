# Trench: `make run` serves on http://localhost:8080 with ./trench.db;
# `make test` runs every test. Only Go is needed.
GO ?= go
HTMX_VERSION := 2.0.11

.PHONY: run build test test-short generate check vendor-htmx fuzz clean bench crashtest

run:
	$(GO) run ./cmd/trench serve

build:
	$(GO) build -o bin/trench ./cmd/trench

test:
	$(GO) test -count=1 ./...

# Regenerate the templ components (the generated files are committed).
generate:
	$(GO) tool templ generate

# What CI checks beyond the tests: go.mod and go.sum tidy (direct
# dependencies not marked indirect), generated code in sync, gofmt, vet.
check:
	$(GO) mod tidy -e -diff
	$(GO) tool templ generate
	git diff --exit-code -- '*_templ.go'
	test -z "$$(gofmt -l $$(git ls-files '*.go' | grep -v '_templ.go$$'))"
	$(GO) vet ./...

fuzz:
	$(GO) test ./rules/trench -run '^$$' -fuzz FuzzParsePosition -fuzztime 30s

# Refresh static/htmx.min.js from the npm package (needs npm).
vendor-htmx:
	cd $$(mktemp -d) && npm pack htmx.org@$(HTMX_VERSION) >/dev/null && tar xzf htmx.org-$(HTMX_VERSION).tgz && cp package/dist/htmx.min.js $(CURDIR)/static/htmx.min.js

clean:
	rm -rf bin

# Measure the server under load: 64 browsers playing over HTTP, against
# the raw SQLite commit rate (BENCH_FLAGS="--cpuprofile cpu.out" to profile).
bench:
	$(GO) run ./cmd/trench bench $(BENCH_FLAGS)

# Kill the server with SIGKILL under load, restart it, check that no
# acknowledged move was lost and every game still replays.
crashtest:
	$(GO) run ./cmd/trench crashtest
