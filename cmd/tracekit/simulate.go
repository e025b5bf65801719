package main

import (
	"bytes"
	"fmt"

	"github.com/tracekit/tracekit/binfmt/stda"
	"github.com/tracekit/tracekit/binfmt/tdf"
	"github.com/tracekit/tracekit/lower/simulate"
)

// simulateCmd is "tracekit simulate --tdf X.TDF --state STATE.json -o OUT".
type simulateCmd struct {
	TDF       string `name:"tdf" required:"" placeholder:"FILE" completion-predictor:"tdf" help:"The TDF whose trace programs run."`
	State     string `name:"state" required:"" placeholder:"FILE" completion-predictor:"json" help:"The machine state and the hits (docs/simulate.md)."`
	Output    string `short:"o" name:"output" required:"" placeholder:"FILE" help:"The trace buffer to write."`
	Format    string `name:"format" enum:"stda,save" default:"stda" help:"stda: a bare trace buffer; save: a TRACEFMT save file."`
	OldFormat bool   `name:"old-format" help:"Write the old STDA format (2-byte time stamps) instead of the new one."`
	Size      int    `name:"size" default:"0" help:"The trace buffer's size in bytes (0: the simulator's default)."`
}

// maxNotes is how many notes on hits tracekit simulate prints.
const maxNotes = 100

// Run simulates the hits and writes the buffer; what the simulator could
// not do as the state may have meant is printed as warnings.
func (c *simulateCmd) Run(e *env) error {
	// The hits are read and thrown away as they run: the collector may run
	// less often (streamMemory).
	streamMemory(e)
	t, err := tdf.Open(c.TDF)
	if err != nil {
		return err
	}
	out, err := simulate.ParseOutput(c.Format)
	if err != nil {
		return err
	}
	// The hits are read as they run (simulate.RunFile) and their results
	// are not kept; the notes are printed after the run (a run that fails
	// prints none), the first maxNotes of them and then how many more
	// there were: memory does not grow with the hits, and a million hits
	// of an ABORTOP tracepoint do not flood the terminal. RunFile may go
	// over the hits again from hit 0.
	var notes bytes.Buffer
	more := 0
	shown := 0
	opt := simulate.Options{Size: c.Size, Output: out, Hit: func(h *simulate.HitResult) {
		if h.Hit == 0 {
			notes.Reset()
			more, shown = 0, 0
		}
		for _, n := range h.Notes {
			if shown == maxNotes {
				more++
				continue
			}
			shown++
			fmt.Fprintf(&notes, "%s: warning: hit %d (minor %04X at %08X:%08X): %s\n", c.State, h.Hit, h.Minor, h.Object, h.Offset, n)
		}
	}}
	if c.OldFormat {
		opt.Format = stda.FormatOld
	}
	res, err := simulate.RunFile(t, c.State, opt)
	if err != nil {
		return err
	}
	if more > 0 {
		fmt.Fprintf(&notes, "%s: warning: %d more notes on hits not shown (the first %d are)\n", c.State, more, maxNotes)
	}
	if _, err := e.stderr.Write(notes.Bytes()); err != nil {
		return err
	}
	if res.Dropped > 0 {
		fmt.Fprintf(e.stderr, "%s: warning: %d older records overwritten: the buffer wrapped\n", c.State, res.Dropped)
	}
	set := e.outs.NewSet()
	set.Add(c.Output, res.Bytes)
	return set.Commit()
}
