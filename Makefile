# tracekit: build, test, benchmark, fuzz and lint.
GO       ?= go
FUZZTIME ?= 10s

.PHONY: all build test bench bench-formats fuzz lint clean

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
	@$(MAKE) --no-print-directory bench-formats

BENCHMAXRSS ?= 64

# For each trace dialect, "tracekit records" on a generated file of
# BENCHSIZE bytes with --format chrome (to a file through standard output)
# and --format parquet (-o): MB/s and peak memory, which must stay within
# BENCHMAXRSS MiB (the run fails otherwise).
bench-formats: build
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	for d in $$(./bin/tracekit dialects | grep -v binary | cut -d' ' -f1); do \
	  ./bin/tracekit generate --dialect $$d --size $(BENCHSIZE) -o "$$tmp/in" || exit 1; \
	  for f in chrome parquet; do \
	    o=; if [ $$f = parquet ]; then o="-o $$tmp/out.parquet"; fi; \
	    ./bin/tracekit records --stats --keep-going --quiet --dialect $$d --format $$f $$o "$$tmp/in" > "$$tmp/out.$$f" 2> "$$tmp/err" || { cat "$$tmp/err"; exit 1; }; \
	    tail -n 1 "$$tmp/err" | awk -v d=$$d -v f=$$f -v max=$(BENCHMAXRSS) \
	      '{ split($$0, p, ", "); rss = p[3]; sub(/peak RSS /, "", rss); rss += 0; \
	         over = rss > max; printf "%-10s %-8s %12s   peak RSS %4d MiB%s\n", d, f, p[2], rss, (over ? "   over " max " MiB" : ""); exit over }' || exit 1; \
	  done; \
	done

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
