# tracekit: build, test, benchmark, fuzz and lint.
GO       ?= go
FUZZTIME ?= 10s

.PHONY: all build test bench fuzz lint clean

all: lint build test

build:
	$(GO) build -o bin/tracekit ./cmd/tracekit
	$(GO) build -o bin/trcust ./cmd/trcust

test:
	$(GO) test -race ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# A short run of every fuzz target of every package.
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$t"; \
	    $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

clean:
	rm -rf bin
