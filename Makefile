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

BENCHSIZE ?= 100000000

# Go benchmarks, then, for each trace dialect, "tracekit records" on a
# generated file of BENCHSIZE bytes into /dev/null, beside "wc -l" on the
# same file in the same run: MB/s of each, their ratio, and peak memory.
bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./...
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	for d in $$(./bin/tracekit dialects | grep -v binary | cut -d' ' -f1); do \
	  ./bin/tracekit generate --dialect $$d --size $(BENCHSIZE) -o "$$tmp/in" || exit 1; \
	  size=$$(wc -c < "$$tmp/in"); \
	  s=$$(date +%s.%N); wc -l "$$tmp/in" > /dev/null; e=$$(date +%s.%N); \
	  ./bin/tracekit records --stats --keep-going --dialect $$d "$$tmp/in" > /dev/null 2> "$$tmp/err" || { cat "$$tmp/err"; exit 1; }; \
	  tail -n 1 "$$tmp/err" | awk -v d=$$d -v size=$$size -v s=$$s -v e=$$e \
	    '{ wc = size / 1e6 / (e - s); split($$0, f, ", "); rec = f[2] + 0; \
	       printf "%-10s records %8.2f MB/s   wc -l %8.1f MB/s   ratio %.4f   %s\n", d, rec, wc, rec / wc, f[3] }'; \
	done

# A short run of every fuzz target of every package.
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$t"; \
	    $(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

# staticcheck is pinned here, not in go.mod: it is a tool, not a dependency.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

clean:
	rm -rf bin
