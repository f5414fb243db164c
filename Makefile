# Trench: `make run` serves on http://localhost:8080 with ./trench.db;
# `make test` runs every test. Only Go is needed.
GO ?= go
HTMX_VERSION := 2.0.11
HTMX_SSE_VERSION := 2.2.4

.PHONY: run build test test-short generate check vendor-htmx vendor-htmx-sse fuzz clean bench crashtest release release-check

run:
	$(GO) run ./cmd/trench serve

build:
	$(GO) build -o bin/trench ./cmd/trench

# A slow or busy machine must not fail the suite on go test's default
# limit of 10 minutes a package: the limit is set here, well above the
# packages' times on a quiet machine (see README, "Development").
test:
	$(GO) test -count=1 -timeout 45m ./...

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

# Refresh static/htmx-ext-sse.min.js (htmx's Server-Sent Events extension,
# for the live updates) from the npm package (needs npm).
vendor-htmx-sse:
	cd $$(mktemp -d) && npm pack htmx-ext-sse@$(HTMX_SSE_VERSION) >/dev/null && tar xzf htmx-ext-sse-$(HTMX_SSE_VERSION).tgz && cp package/dist/sse.min.js $(CURDIR)/static/htmx-ext-sse.min.js

clean:
	rm -rf bin dist

# Release binaries: static (no cgo), for the platforms below, into $(DIST)
# with their SHA-256 sums in $(DIST)/SHA256SUMS. The same source gives the
# same bytes: -trimpath, no build time, the version and the commit from
# VERSION and COMMIT (default: git).
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
PLATFORMS ?= linux/amd64 linux/arm64 darwin/arm64 windows/amd64
DIST ?= dist
SHA256 := $(shell command -v sha256sum >/dev/null 2>&1 && echo sha256sum || echo 'shasum -a 256')

release:
	rm -rf $(DIST) && mkdir -p $(DIST)
	for p in $(PLATFORMS); do \
		os=$${p%/*}; arch=$${p#*/}; ext=; [ $$os = windows ] && ext=.exe; \
		echo "building $$os/$$arch"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -buildvcs=false \
			-ldflags "-s -w -buildid= -X main.version=$(VERSION) -X main.commit=$(COMMIT)" \
			-o $(DIST)/trench-$$os-$$arch$$ext ./cmd/trench || exit 1; \
	done
	cd $(DIST) && $(SHA256) trench-* > SHA256SUMS
	cat $(DIST)/SHA256SUMS

# Check that a release can be rebuilt byte for byte: `make release` into
# $(DIST), then again from a copy of the source in another directory with
# an empty build cache; the two SHA256SUMS must be equal (the differing
# lines are printed otherwise), and every binary must be built without cgo.
release-check:
	@tmp=$$(mktemp -d) && trap 'chmod -R u+w "$$tmp" 2>/dev/null; rm -rf "$$tmp"' EXIT && \
	echo "release-check: first build, into $(DIST)" && \
	$(MAKE) -s release VERSION='$(VERSION)' COMMIT='$(COMMIT)' PLATFORMS='$(PLATFORMS)' DIST='$(DIST)' && \
	mkdir "$$tmp/src" && git ls-files -z --cached --others --exclude-standard | \
		tar --null -T - -cf - | tar -xf - -C "$$tmp/src" && \
	echo "release-check: second build, from a copy in $$tmp/src with an empty GOCACHE" && \
	GOCACHE="$$tmp/cache" $(MAKE) -s -C "$$tmp/src" release VERSION='$(VERSION)' COMMIT='$(COMMIT)' PLATFORMS='$(PLATFORMS)' \
		DIST="$$tmp/dist" GO='$(GO)' && \
	for f in $(DIST)/trench-*; do \
		$(GO) version -m "$$f" | grep -q 'CGO_ENABLED=0' || { echo "release-check: $$f was built with cgo"; exit 1; }; \
	done && \
	if cmp -s $(DIST)/SHA256SUMS "$$tmp/dist/SHA256SUMS"; then \
		cat $(DIST)/SHA256SUMS; echo "release-check: the two builds are identical"; \
	else \
		echo "release-check: the two builds differ (< first, > second):"; \
		diff $(DIST)/SHA256SUMS "$$tmp/dist/SHA256SUMS"; exit 1; \
	fi

# Measure the server under load: 64 browsers playing over HTTP, against
# the raw SQLite commit rate (BENCH_FLAGS="--cpuprofile cpu.out" to profile).
bench:
	$(GO) run ./cmd/trench bench $(BENCH_FLAGS)

# Kill the server with SIGKILL under load, restart it, check that no
# acknowledged move was lost and every game still replays.
crashtest:
	$(GO) run ./cmd/trench crashtest
