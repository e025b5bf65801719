# tracekit: build, test, benchmark, fuzz and lint.
GO       ?= go
FUZZTIME ?= 10s

.PHONY: all build test bench fuzz lint generate clean

all: lint build test

build:
	$(GO) build -o bin/tracekit ./cmd/tracekit
	$(GO) build -o bin/trcust ./cmd/trcust

test:
	$(GO) test -race ./...

BENCHSIZE ?= 100000000

# Go benchmarks (with allocations), then scripts/bench-records.sh on
# BENCHSIZE bytes of generated input: "tracekit records" beside
# ../shared/bench/awk-strace-csv.sh on the same STRACE file (wall times and
# their ratio), MB/s of every line dialect against os2strace's, and the peak
# RSS with and without -o, all in the same run.
bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./...
	./scripts/bench-records.sh ./bin/tracekit $(BENCHSIZE)

# A short run of every fuzz target of every package.
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$t"; \
	    $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

# Regenerate the parsers of the grammars (grammar/*/parsers_gen.go) from
# their participle struct tags; TestGeneratedUpToDate fails on a stale one.
generate:
	$(GO) generate ./grammar/...

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

clean:
	rm -rf bin
