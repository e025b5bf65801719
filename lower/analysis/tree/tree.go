// Package tree builds the process tree of a trace, as strace-process-tree
// and pstree show it: from the records of fork, vfork, clone and clone3
// (the child's id is the call's result; CLONE_THREAD makes it a thread of
// the caller's process), execve (the command line), and the exit records
// (+++ exited with N +++, +++ killed by SIG +++). A Tree is a
// record.Writer: it takes the records of a run as they stream and holds one
// node per process or thread.
//
// A record's thread is its TID when the dialect gives one, else its PID
// (strace -f writes the thread's id in its pid column); its process is its
// PID when a TID is given too. Dialects with no process-creating calls
// (Windows strace, OS/2 logs) give nodes without parents.
package tree

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/tracekit/tracekit/lower/record"
)

// Node is a process or a thread.
type Node struct {
	ID      uint64   // the thread's id (for a process: its leader's)
	PID     uint64   // the process (thread group) it belongs to
	PPID    uint64   // the process that created it; 0 when unknown
	Thread  bool     // a thread of PID, not a process of its own
	Argv    []string // the command line of its last successful execve
	StartNs *int64   // the first record's ts_ns
	EndNs   *int64
	Exit    *int64 // the exit status, when it exited
	Signal  string // the signal that killed it
	Calls   int64  // its records but the end halves of calls (with its threads', when they are not shown)
	Kids    []*Node
	created bool  // a creating call was seen
	own     int64 // its own records
}

// Tree is the nodes of a run.
type Tree struct {
	nodes map[uint64]*Node
	order []uint64 // ids in first-seen order
}

// New returns an empty Tree.
func New() *Tree { return &Tree{nodes: map[uint64]*Node{}} }

func (t *Tree) node(id uint64) *Node {
	n := t.nodes[id]
	if n == nil {
		n = &Node{ID: id, PID: id}
		t.nodes[id] = n
		t.order = append(t.order, id)
	}
	return n
}

// Write takes one record.
func (t *Tree) Write(r *record.Record) error {
	id, ok := threadOf(r)
	if !ok {
		return nil
	}
	n := t.node(id)
	if r.TID != nil && r.PID != nil && *r.PID != *r.TID {
		// The dialect tells threads from processes.
		n.PID, n.Thread = *r.PID, true
	}
	if r.TSNs != nil {
		ts := *r.TSNs
		if n.StartNs == nil || ts < *n.StartNs {
			n.StartNs = &ts
		}
		if n.EndNs == nil || ts > *n.EndNs {
			n.EndNs = &ts
		}
		if r.DurNs != nil && *r.DurNs > 0 {
			end := ts + *r.DurNs
			if end > *n.EndNs {
				n.EndNs = &end
			}
		}
	}
	if r.Phase == record.Exit && !r.Unpaired {
		return nil
	}
	n.own++
	switch r.Event {
	case "fork", "vfork", "clone", "clone2", "clone3":
		child, ok := result(r)
		if !ok || child == 0 {
			return nil // the child's side, or a failed call
		}
		c := t.node(child)
		c.created = true
		if hasFlag(r.Args, "CLONE_THREAD") {
			c.Thread, c.PID, c.PPID = true, n.PID, n.PPID
		} else {
			c.PID, c.PPID = child, n.PID
		}
	case "execve", "execveat":
		if v, ok := result(r); ok && v == 0 {
			n.Argv = argv(r)
		}
	case "exited":
		if len(r.Args) > 0 && r.Args[0].Kind == record.KindInt {
			v := int64(r.Args[0].Mag)
			if r.Args[0].Neg {
				v = -v
			}
			n.Exit = &v
		}
	case "killed":
		if len(r.Args) > 0 {
			n.Signal = r.Args[0].Str
		}
	}
	return nil
}

// Flush does nothing: a Tree is read with Roots.
func (t *Tree) Flush() error { return nil }

// threadOf returns the thread a record is of.
func threadOf(r *record.Record) (uint64, bool) {
	switch {
	case r.TID != nil:
		return *r.TID, true
	case r.PID != nil:
		return *r.PID, true
	}
	return 0, false
}

// result returns a call's integer result.
func result(r *record.Record) (uint64, bool) {
	if r.Ret == nil || r.Ret.Kind != record.KindInt || r.Ret.Neg || r.Errno != "" {
		return 0, false
	}
	return r.Ret.Mag, true
}

// hasFlag reports whether a flag name appears in the arguments (as a
// symbol, in a flag set, or in a structure such as clone3's).
func hasFlag(args []record.Arg, name string) bool {
	for i := range args {
		a := &args[i]
		if a.Kind == record.KindSym && a.Str == name || hasFlag(a.Fields, name) {
			return true
		}
	}
	return false
}

// argv returns the command line of an execve: its array argument's
// strings.
func argv(r *record.Record) []string {
	for _, a := range r.Args {
		if a.Kind != record.KindArray {
			continue
		}
		var out []string
		for _, f := range a.Fields {
			if f.Kind == record.KindStr {
				s := f.Str
				if f.Truncated {
					s += "..."
				}
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// Roots returns the tree: the nodes no known node created, in the order
// first seen, each with its children (processes, and with threads true
// their threads) ordered by id. Without threads, a thread's records count
// for its process.
func (t *Tree) Roots(threads bool) []*Node {
	for _, n := range t.nodes {
		n.Kids, n.Calls = nil, n.own
	}
	shown := map[uint64]*Node{}
	for _, id := range t.order {
		n := t.nodes[id]
		if n.Thread && !threads {
			if p := t.nodes[n.PID]; p != nil && p != n {
				p.Calls += n.own
			}
			continue
		}
		shown[id] = n
	}
	var roots []*Node
	for _, id := range t.order {
		n, ok := shown[id]
		if !ok {
			continue
		}
		parent := n.PPID
		if n.Thread {
			parent = n.PID
		}
		if p, ok := shown[parent]; ok && n.created && p != n {
			p.Kids = append(p.Kids, n)
		} else {
			roots = append(roots, n)
		}
	}
	for _, n := range shown {
		slices.SortFunc(n.Kids, func(a, b *Node) int { return cmp.Compare(a.ID, b.ID) })
	}
	return roots
}

// Write prints the tree: "text" (indented, like strace-process-tree) or
// "json" (one object a node, in tree order, with pid, ppid, tid, thread,
// argv, start_ns, end_ns, exit, signal, calls).
func Write(w io.Writer, format string, roots []*Node) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		var walk func(n *Node) error
		walk = func(n *Node) error {
			obj := map[string]any{"pid": n.PID, "tid": n.ID, "ppid": nil, "thread": n.Thread,
				"argv": n.Argv, "start_ns": n.StartNs, "end_ns": n.EndNs, "exit": n.Exit,
				"signal": nil, "calls": n.Calls}
			if n.PPID != 0 {
				obj["ppid"] = n.PPID
			}
			if n.Signal != "" {
				obj["signal"] = n.Signal
			}
			if err := enc.Encode(obj); err != nil {
				return err
			}
			for _, k := range n.Kids {
				if err := walk(k); err != nil {
					return err
				}
			}
			return nil
		}
		for _, r := range roots {
			if err := walk(r); err != nil {
				return err
			}
		}
		return nil
	case "text":
		var walk func(n *Node, prefix string, last, root bool) error
		walk = func(n *Node, prefix string, last, root bool) error {
			branch, next := "", ""
			if !root {
				branch, next = "├─ ", "│  "
				if last {
					branch, next = "└─ ", "   "
				}
			}
			if _, err := fmt.Fprintf(w, "%s%s%s\n", prefix, branch, label(n)); err != nil {
				return err
			}
			for i, k := range n.Kids {
				if err := walk(k, prefix+next, i == len(n.Kids)-1, false); err != nil {
					return err
				}
			}
			return nil
		}
		for _, r := range roots {
			if err := walk(r, "", true, true); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("unknown format %q: want text or json", format)
}

// label is a node's line: id, command line, duration, how it ended, calls.
func label(n *Node) string {
	var b strings.Builder
	if n.Thread {
		fmt.Fprintf(&b, "thread %d", n.ID)
	} else {
		b.WriteString(strconv.FormatUint(n.ID, 10))
	}
	if len(n.Argv) > 0 {
		b.WriteString(" " + strings.Join(quoteAll(n.Argv), " "))
	}
	if n.StartNs != nil && n.EndNs != nil {
		fmt.Fprintf(&b, " [%.3fs]", float64(*n.EndNs-*n.StartNs)/1e9)
	}
	switch {
	case n.Signal != "":
		b.WriteString(" killed by " + n.Signal)
	case n.Exit != nil:
		fmt.Fprintf(&b, " exit %d", *n.Exit)
	}
	fmt.Fprintf(&b, " (%d calls)", n.Calls)
	return b.String()
}

func quoteAll(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\"'\\") {
			a = strconv.Quote(a)
		}
		out[i] = a
	}
	return out
}
