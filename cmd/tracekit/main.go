// Command tracekit compiles OS/2 Trace Source Files, reads legacy trace
// formats and formats trace buffers. Run "tracekit --help" for the
// commands.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"syscall"

	"github.com/tracekit/tracekit/cmd/internal/outfile"

	"github.com/alecthomas/kong"
	kongcompletion "github.com/jotaen/kong-completion"
)

// cli is the command line.
type cli struct {
	Check    checkCmd    `cmd:"" help:"Check Trace Source Files and print their diagnostics; write nothing."`
	Compile  compileCmd  `cmd:"" help:"Compile a Trace Source File into its TRC00xx.TFF (and, for dynamic tracepoints, its TDF)."`
	Combine  combineCmd  `cmd:"" help:"Combine TFF files of one major code into one (TRCUST /C=)."`
	Dump     dumpCmd     `cmd:"" help:"Print a TFF or a TDF readably (TDF programs disassembled), as JSON, or as a TSF listing."`
	Format   formatCmd   `cmd:"" help:"Format STDA trace buffers and TRACEFMT save files through their TFFs (a modern TRACEFMT)."`
	Simulate simulateCmd `cmd:"" help:"Run a TDF's trace programs against a described machine state into a trace buffer."`
	Records  recordsCmd  `cmd:"" help:"Read traces in any dialect ($${dialects}) as normalized records."`
	Stats    statsCmd    `cmd:"" help:"Count calls, errors and durations per event (like strace -c), for any dialect."`
	Tree     treeCmd     `cmd:"" help:"Print the process (and thread) tree of a trace: fork/clone/execve, exits and signals."`
	Dialects dialectsCmd `cmd:"" help:"List the trace dialects tracekit reads."`
	Generate generateCmd `cmd:"" help:"Write synthetic input of a trace dialect ($${generated_dialects}), for benchmarks."`
	AST      astCmd      `cmd:"" name:"ast" help:"Dump the syntax tree of a file (kr/pretty), positions included."`

	Help       helpCmd                   `cmd:"" help:"Print the help of a command: tracekit help CMD."`
	Completion kongcompletion.Completion `cmd:"" help:"Print the shell code that turns on tab completion: tracekit completion -c bash|zsh|fish."`
	Version    versionFlag               `name:"version" help:"Print the module version and the revision tracekit was built from, and exit."`
}

// env is what a command runs with: its streams, so that tests can run the
// command line in process, the outputs it writes (removed when a signal
// ends the run) and its progress bar (cleared then, and before each
// diagnostic).
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	outs           *outfile.Run
	signals        *signals
	process        bool // main runs the command: the process is the command's
}

func main() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	os.Exit(runSignals(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, sig, os.Exit))
}

// memoryLimit is the soft limit of the Go runtime's memory that compile
// and check set (limitMemory).
const memoryLimit = 48 << 20

// limitMemory keeps a command that holds a whole TSF's program under 64 MiB
// resident, whatever the TSF (make bench-targets checks it): a soft limit
// makes the garbage collector run sooner as the Go heap nears it, instead
// of letting the heap grow to twice what is live. A compile of 65,535
// tracepoints (32 MiB live) peaks at about 58 MiB, for more collector
// time. Only when the process runs the command (main), and
// GOMEMLIMIT in the environment wins.
//
// A soft limit near or below what the program holds live would make the
// collector run without end (at up to half the processor: a TSF of 65,535
// dynamic tracepoints, 230 MiB live, took 5.8 s instead of 1.5), so once
// a collection leaves more than nine tenths of the limit live, the limit
// no longer holds: memoryTuner lets the heap grow to twice the live heap,
// as the collector's default does, and the 64 MiB are given up for that
// run rather than the time.
func limitMemory(e *env) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); e.process && !set {
		debug.SetMemoryLimit(memoryLimit)
		(&memoryTuner{floor: memoryLimit}).arm()
	}
}

// memoryTuner raises the soft memory limit after a garbage collection
// that left more than nine tenths of it live: to twice the live heap, never
// below floor.
type memoryTuner struct {
	floor  int64
	sample [1]metrics.Sample
}

// cycleMark is an object whose finalizer marks the end of a garbage
// collection: it is 16 bytes, too large for the allocator to pack it with
// others (a finalizer of a packed object may never run).
type cycleMark [16]byte

// arm makes the tuner run after the next collection: a finalizer runs once
// the object it is set on is found unreachable, that is after a cycle.
func (t *memoryTuner) arm() {
	runtime.SetFinalizer(new(cycleMark), func(*cycleMark) {
		t.tune()
		t.arm()
	})
}

// tune sets the limit from the live heap of the last collection.
func (t *memoryTuner) tune() {
	t.sample[0].Name = "/gc/heap/live:bytes"
	metrics.Read(t.sample[:])
	if t.sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	if l, ok := t.limitFor(int64(t.sample[0].Value.Uint64())); ok {
		debug.SetMemoryLimit(l)
	}
}

// limitFor returns the soft limit after a collection that left live bytes
// live, and whether it is to change.
func (t *memoryTuner) limitFor(live int64) (int64, bool) {
	if live <= t.floor/10*9 {
		return t.floor, false
	}
	return 2 * live, true
}

// streamGCPercent is the garbage collector's GOGC for a command that
// streams records (streamMemory).
const streamGCPercent = 400

// streamMemory lets the garbage collector of a command that streams
// records run less often: what such a command holds at a time is small (a
// few batches of lines and their records, some MiB) but it throws away
// every line it reads, so that at the default GOGC of 100 the collector
// runs every few MiB of input, its write barriers on for much of the run
// (9% of the processor time of records with 2 workers). The soft memory
// limit of limitMemory keeps the larger heap goal under 64 MiB resident.
// Only when the process runs the command (main); GOGC and GOMEMLIMIT in
// the environment win.
func streamMemory(e *env) {
	if _, set := os.LookupEnv("GOGC"); e.process && !set {
		debug.SetGCPercent(streamGCPercent)
	}
	limitMemory(e)
}

// compileGCPercent is the garbage collector's GOGC for compile
// (compileMemory).
const compileGCPercent = 400

// compileMemory lets the garbage collector of compile run less often: the
// program it builds stays live until its files are written (some 27 MiB
// for 65,535 tracepoints), so that each collection marks most of it again
// and frees little; at the default GOGC of 100 a compile of 65,535
// tracepoints runs 7 to 9 of them, at 400 two, since the statements of
// its valid @STATIC tracepoints are dropped once checked (session 16). The
// soft memory limit of limitMemory keeps the larger heap goal under 64 MiB
// resident. Only when the process runs the command (main); GOGC and
// GOMEMLIMIT in the environment win.
func compileMemory(e *env) {
	if _, set := os.LookupEnv("GOGC"); e.process && !set {
		debug.SetGCPercent(compileGCPercent)
	}
	limitMemory(e)
}

// run runs the command line args and returns the exit status; no signal
// is watched (tests run it in process).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runSignals(args, stdin, stdout, stderr, nil, nil)
}

// runSignals runs the command line args and returns the exit status. A
// signal from sig ends the run through exit (signals.watch), after the
// temporary files of its outputs are removed and its progress bar cleared.
func runSignals(args []string, stdin io.Reader, stdout, stderr io.Writer, sig <-chan os.Signal, exit func(int)) (status int) {
	e := &env{stdin: stdin, stdout: outfile.Wrap("standard output", stdout), stderr: stderr, outs: outfile.NewRun(stdout)}
	e.signals = newSignals(e, exit)
	e.process = exit != nil
	if sig != nil {
		stop := make(chan struct{})
		defer close(stop)
		go e.signals.watch(sig, stop)
	}
	defer func() {
		// A panic leaves no temporary file and no bar behind either.
		if p := recover(); p != nil {
			e.outs.Abort()
			e.signals.clearBar()
			panic(p)
		}
	}()
	var c cli
	exited := false
	parser, err := kong.New(&c,
		kong.Name("tracekit"),
		kong.Description("A toolchain for OS/2-era trace formats: a TRCUST-compatible TSF compiler, trace readers and a formatter."),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) { exited, status = true, code }),
		kong.UsageOnError(),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		kong.Help(helpWithStatuses),
	)
	if err != nil {
		fmt.Fprintln(stderr, "tracekit:", err)
		return exitUsage
	}
	fillDialectLists(parser.Model)
	// A shell asking for completions (COMP_LINE set) is answered here.
	kongcompletion.Register(parser, kongcompletion.WithPredictors(completionPredictors()))
	if exited {
		return status
	}
	ctx, err := parser.Parse(args)
	if exited {
		return status
	}
	if err != nil {
		fmt.Fprintln(stderr, "tracekit:", err)
		return exitUsage
	}
	err = ctx.Run(e)
	status = statusOf(err)
	var code exitCode
	if err != nil && !errors.As(err, &code) {
		e.signals.clearBar()
		if jsonStderr(ctx) {
			b, _ := json.Marshal(map[string]string{"severity": "fatal", "message": err.Error()})
			fmt.Fprintf(stderr, "%s\n", b)
		} else {
			fmt.Fprintln(stderr, "tracekit:", err)
		}
	}
	return status
}

// jsonStderr reports whether the command run asked for JSON diagnostics
// (--diagnostics=json): every line on standard error is JSON then.
func jsonStderr(ctx *kong.Context) bool {
	n := ctx.Selected()
	if n == nil || !n.Target.IsValid() || !n.Target.CanAddr() {
		return false
	}
	j, ok := n.Target.Addr().Interface().(interface{ jsonDiagnostics() bool })
	return ok && j.jsonDiagnostics()
}
