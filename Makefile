# tracekit: build, test, benchmark, fuzz and lint.
GO       ?= go
FUZZTIME ?= 10s

.PHONY: all build test bench bench-targets bench-instr bench-b3 bench-formats fuzz lint generate clean oracle-diff

all: lint build test

build:
	$(GO) build -o bin/tracekit ./cmd/tracekit
	$(GO) build -o bin/trcust ./cmd/trcust

# go test caches a test that skipped for want of the shared corpus
# (../shared beside the checkout) as passed; when ../shared is there, -count=1
# makes every test run again, so that a corpus added later is read.
TESTCOUNT ?= $(if $(wildcard ../shared),-count=1,)

test:
	$(GO) test -race $(TESTCOUNT) ./...

# 20 MB of each dialect (100 MB made make bench last well over ten
# minutes on the 2-core machine); make bench BENCHSIZE=100000000 for more.
BENCHSIZE ?= 20000000

# Go benchmarks (with allocations), make bench-formats, then the headline:
# .ci/bench-targets.sh, every performance target of issue #22 measured in
# this one run on BENCHSIZE bytes of generated input (B3SIZE for b3) and
# printed as one table, each figure beside its target with PASS or MISS,
# the core count at the top: os2strace to CSV (7 columns, all, JSONL,
# --workers 1) beside ../shared/bench/awk-strace-csv.sh (mawk), the
# --workers scaling table, Linux strace beside b3 (.ci/bench-b3.sh), every
# line dialect's MB/s against os2strace's, format and simulate
# (records/s, hits/s), compile of 65,535 tracepoints, and the peak RSS of
# every command. The run fails when a target is missed.
bench: build
	$(GO) test -run '^$$' -bench . -benchmem ./...
	@$(MAKE) --no-print-directory bench-formats
	@$(MAKE) --no-print-directory bench-targets

bench-targets: build
	./.ci/bench-targets.sh ./bin/tracekit $(BENCHSIZE) $(B3SIZE)

# The instructions of the paths bench-targets times, counted by valgrind's
# cachegrind (.ci/bench-instr.sh): the same on every run, so that a change
# can be judged on a machine whose timings vary by a fifth between runs.
bench-instr: build
	./.ci/bench-instr.sh ./bin/tracekit

BENCHMAXRSS ?= 64

# For each trace dialect, "tracekit records" on a generated file of
# BENCHSIZE bytes with --format chrome (to a file through standard output)
# and --format parquet (-o): MB/s and peak memory, which must stay within
# BENCHMAXRSS MiB (the run fails otherwise).
bench-formats: build
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	for d in $$(./bin/tracekit dialects | grep -v binary | cut -d' ' -f1); do \
	  ./bin/tracekit generate --dialect $$d --size $(BENCHSIZE) -o "$$tmp/in" 2> /dev/null || { echo "$$d: no generator, skipped"; continue; }; \
	  for f in chrome parquet; do \
	    o=; if [ $$f = parquet ]; then o="-o $$tmp/out.parquet"; fi; \
	    ./bin/tracekit records --stats --keep-going --quiet --dialect $$d --format $$f $$o "$$tmp/in" > "$$tmp/out.$$f" 2> "$$tmp/err" || { cat "$$tmp/err"; exit 1; }; \
	    tail -n 1 "$$tmp/err" | awk -v d=$$d -v f=$$f -v max=$(BENCHMAXRSS) \
	      '{ split($$0, p, ", "); rss = p[3]; sub(/peak RSS /, "", rss); rss += 0; \
	         over = rss > max; printf "%-10s %-8s %12s   peak RSS %4d MiB%s\n", d, f, p[2], rss, (over ? "   over " max " MiB" : ""); exit over }' || exit 1; \
	  done; \
	done

B3SIZE ?= 20000000

# tracekit records beside b3 (npm b3-strace-parser, installed into a
# temporary folder for the run) on the same generated strace log of B3SIZE
# bytes: input lines per second of each (median of several runs), their
# ratio, records written, and peak memory (.ci/bench-b3.sh).
bench-b3: build
	./.ci/bench-b3.sh ./bin/tracekit $(B3SIZE)

N ?= 500
SEED ?= 1

# The differential test against IBM's TRCUST 3.05A: N generated TRCUST runs
# from seed SEED, each through IBM's binary and through trcust, compared byte
# for byte; a summary by feature and by kind of difference, and the first
# differing cases minimised. Needs TRCUST_EXE and TWOINE_BUILD
# (../shared/oracle-runner/README.md); cmd/trcust/oraclediff_test.go lists
# the other variables.
oracle-diff:
	ORACLE_N=$(N) ORACLE_SEED=$(SEED) $(GO) test ./cmd/trcust -run '^TestOracleDiff$$' -count=1 -v -timeout 0

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

# staticcheck is pinned here, not in go.mod: it is a tool, not a dependency.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) -checks inherit,ST1003 ./...

clean:
	rm -rf bin
