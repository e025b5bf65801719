// Package gen writes valid synthetic input for the line dialects, of a
// given size, for benchmarks and for comparing tracekit with wc -l on large
// files. The registry (lower/dialect) sets each function as its dialect's
// Generate; dialect.Generate calls one by name. The output is deterministic: the same call writes the same bytes.
// It is synthetic: made from the format descriptions, not from real traces.
package gen

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// rng is a small deterministic generator (64-bit LCG, high bits out).
type rng uint64

func (r *rng) next() uint64 {
	*r = *r*6364136223846793005 + 1442695040888963407
	return uint64(*r >> 16)
}

func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

// budget writes whole chunks while they fit in n bytes.
type budget struct {
	w    *bufio.Writer
	left int64
	err  error
}

func newBudget(w io.Writer, n int64) *budget {
	return &budget{w: bufio.NewWriterSize(w, 64<<10), left: n}
}

// put writes s if it fits and reports whether it did.
func (b *budget) put(s string) bool {
	if b.err != nil || int64(len(s)) > b.left {
		return false
	}
	b.left -= int64(len(s))
	_, b.err = b.w.WriteString(s)
	return b.err == nil
}

func (b *budget) done() error {
	if b.err != nil {
		return b.err
	}
	return b.w.Flush()
}

// OS2Strace writes a STRACE POST ASCII dump: a time-high record, a start-up
// record (4 processors at 90 MHz), a module-table marker, then hooks of the
// 32-bit, byte, item and time-high kinds with rising time stamps.
func OS2Strace(w io.Writer, n int64) error {
	b := newBudget(w, n)
	r := rng(1)
	high, low := uint64(254), uint64(3417264209)
	stamp := func() string { return fmt.Sprintf("%d:%d", high, low) }
	head := []string{
		fmt.Sprintf("1101   a8    1 %s 0 %08x\n", stamp(), high),
		fmt.Sprintf("2224   a8    2 %s 0 141e000708000000cc07153907030000040000004a5f5d054a5f5d054a5f5d054a5f5d05\n", stamp()),
		fmt.Sprintf("3401   a8    3 %s 0 -- strace.mte --\n", stamp()),
	}
	for _, h := range head {
		if !b.put(h) {
			return b.done()
		}
	}
	for {
		low += uint64(200 + r.intn(5000))
		if low >= 1<<32 {
			low -= 1 << 32
			high++
			if !b.put(fmt.Sprintf("1101   a8    1 %s %d %08x\n", stamp(), r.intn(4), high)) {
				break
			}
			continue
		}
		cpu := r.intn(4)
		var line string
		switch k := r.intn(10); {
		case k < 5:
			nw := r.intn(5)
			var sb strings.Builder
			for range nw {
				fmt.Fprintf(&sb, " %08x", uint32(r.next()))
			}
			line = fmt.Sprintf(" 10%x %4x %4x %s %d%s\n", nw, 0x10+r.intn(8), r.intn(0x90), stamp(), cpu, sb.String())
		case k < 7:
			nb := 1 + r.intn(12)
			var sb strings.Builder
			for range nb {
				fmt.Fprintf(&sb, "%02x", byte(r.next()))
			}
			line = fmt.Sprintf(" 2%02x %4x %4x %s %d %s\n", nb, 0x20+r.intn(4), r.intn(0x40), stamp(), cpu, sb.String())
		case k < 9:
			ni := 1 + r.intn(3)
			var sb strings.Builder
			for range ni {
				fmt.Fprintf(&sb, " %04x", uint16(r.next()))
			}
			line = fmt.Sprintf(" 8%02x %4x %4x %s %d%s\n", ni, 0x12, r.intn(8), stamp(), cpu, sb.String())
		default:
			var sb strings.Builder
			ni := 1 + r.intn(2)
			for range ni {
				fmt.Fprintf(&sb, " %06x", uint32(r.next())&0xFFFFFF)
			}
			line = fmt.Sprintf(" 4%02x %4x %4x %s %d%s\n", ni, 0x30, r.intn(8), stamp(), cpu, sb.String())
		}
		if !b.put(line) {
			break
		}
	}
	return b.done()
}

// OS2MTE writes an STRACE.MTE module table.
func OS2MTE(w io.Writer, n int64) error {
	b := newBudget(w, n)
	r := rng(2)
	mods := []string{`E:\OS2\PMSHELL.EXE`, `E:\OS2\SYSTEM\LOGDAEM.EXE`, `E:\MPTN\BIN\CNTRL.EXE`, `E:\OS2\APPS\KLONDIKE.EXE`, `C:\SYNTH\TRACE TEST.EXE`}
	for pid := 4; ; pid++ {
		mod := mods[r.intn(len(mods))]
		ptda := 0xfb1d0000 + uint32(r.intn(0xffff))
		for seg := 1; seg <= 1+r.intn(4); seg++ {
			line := fmt.Sprintf("%04x %08x %08x %08x %08x %s\n", seg, seg<<16, r.intn(0x10000), pid, ptda, mod)
			if !b.put(line) {
				return b.done()
			}
		}
	}
}

// WinStrace writes a Windows strace trace: eight threads whose calls are
// split into interleaved start and end halves, with whole-call lines in
// between, and every argument form.
func WinStrace(w io.Writer, n int64) error {
	b := newBudget(w, n)
	r := rng(3)
	type open struct {
		id   int
		name string
	}
	const threads = 8
	var pending [threads]*open
	id := 0
	names := []string{"NtOpenFile", "NtReadFile", "NtClose", "NtQueryInformationFile", "NtCreateEvent"}
	for {
		t := r.intn(threads)
		pid, tid := 1000+t/4, 2000+t
		var line string
		switch {
		case pending[t] != nil:
			p := pending[t]
			pending[t] = nil
			line = fmt.Sprintf("< %d %d %d %s[4](0x%x, ???, {Length=%d, Name=???}, <???|%d>) == STATUS_SUCCESS\n",
				p.id, pid, tid, p.name, 0x7c+r.intn(100), 24, r.intn(1000))
		case r.intn(3) == 0:
			id++
			line = fmt.Sprintf("%d %d %d NtClose[1](0x%x) == 0\n", id, pid, tid, 0x7c+r.intn(100))
		default:
			id++
			p := &open{id: id, name: names[r.intn(len(names))]}
			pending[t] = p
			line = fmt.Sprintf("> %d * %d %d %s[4](???, %d, {Length=%d, Name=\"\\\\??\\\\C:\\\\synth\\\\f%d.txt\\n\"}, <%d|???>)\n",
				p.id, pid, tid, p.name, -r.intn(10), 24, r.intn(100), r.intn(1000))
		}
		if !b.put(line) {
			return b.done()
		}
	}
}

// prfEvent is one synthetic PRF event, printed in either form.
type prfEvent struct {
	status           string
	pid              int
	thread           string
	trace            int
	process          string
	event            int
	date, clock, sub string
	rc               int
	cip, rip         string
	cpid, ccom       int
	rpid, rcom       int
	intName, oprName string
	opt              []byte
}

func (r *rng) prfEvent(i int) prfEvent {
	opt := make([]byte, r.intn(40))
	for j := range opt {
		opt[j] = byte(r.next())
	}
	ev := 0x8000 + 0x100*r.intn(2) + r.intn(16)
	return prfEvent{
		status: []string{"Rec", "Rec", "Rec", "ErrRec"}[r.intn(4)],
		pid:    4000 + r.intn(4), thread: fmt.Sprintf("0x%016x", 0x1a2b00+r.intn(8)), trace: i,
		process: "cjstartsv", event: ev,
		date: "2000/02/12", clock: fmt.Sprintf("13:%02d:%02d", 43+i/60000%10, i/1000%60), sub: fmt.Sprintf("%03d/%03d/%03d", i%1000, r.intn(1000), 0),
		rc: -r.intn(2), cip: "192.168.0.5", cpid: 2311, ccom: r.intn(100), rip: "192.168.0.9", rpid: 977, rcom: 1,
		intName: "synth.example.Bank", oprName: "transfer", opt: opt,
	}
}

func asciiOf(b []byte) string {
	out := make([]byte, len(b))
	for i, c := range b {
		if c >= 0x20 && c < 0x7f {
			out[i] = c
		} else {
			out[i] = '.'
		}
	}
	return string(out)
}

// dump prints the event in the dump form.
func (e prfEvent) dump() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "PRF: %s Process: %d Thread: %s\n", e.status, e.pid, e.thread)
	fmt.Fprintf(&sb, "Trace: %d\nProcessName: %s\n", e.trace, e.process)
	fmt.Fprintf(&sb, "Event: 0x%04x Time: %s %s %s\nRc: %d\n", e.event, e.date, e.clock, e.sub, e.rc)
	fmt.Fprintf(&sb, "ClientAP: %s %d - %d\nRootAP: %s %d - %d\n", e.cip, e.cpid, e.ccom, e.rip, e.rpid, e.rcom)
	fmt.Fprintf(&sb, "INT: %s OPR: %s\n", e.intName, e.oprName)
	sb.WriteString(DumpHeader + "\n")
	for off := 0; off < len(e.opt); off += 16 {
		sb.WriteString(DumpLine(off, e.opt[off:min(off+16, len(e.opt))]) + "\n")
	}
	return sb.String()
}

// DumpHeader is the header line of a PRF hex dump as the generators print
// it.
const DumpHeader = "Offset    +0 +1 +2 +3 +4 +5 +6 +7 +8 +9 +a +b +c +d +e +f  0123456789abcdef"

// DumpLine prints up to 16 bytes at offset off as a line of a PRF hex dump,
// aligned under DumpHeader.
func DumpLine(off int, b []byte) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%08x  ", off)
	for i := range 16 {
		if i < len(b) {
			fmt.Fprintf(&sb, "%02x ", b[i])
		} else {
			sb.WriteString("   ")
		}
	}
	sb.WriteString(" " + asciiOf(b))
	return sb.String()
}

// csv prints the event as a row of the CSV form.
func (e prfEvent) csv() string {
	return fmt.Sprintf("%s,%d,%s,%d,%s,0x%04x,%s,%s,%s,%d,%s,%d,%d,%s,%d,%d,%s,%s,%x,%s\n",
		e.status, e.pid, e.thread, e.trace, e.process, e.event, e.date, e.clock, e.sub, e.rc,
		e.cip, e.cpid, e.ccom, e.rip, e.rpid, e.rcom, e.intName, e.oprName, e.opt, csvQuote(asciiOf(e.opt)))
}

func csvQuote(s string) string {
	if strings.ContainsAny(s, ",\"") {
		return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
	}
	return s
}

// CSVHeader is the header row of the PRF CSV form.
const CSVHeader = "PRF,Process,Thread(hashcode),Trace,ProcessName,Event,Date,Time,Time(msec/usec/nsec),Rc,ClientAP IP,ClientAP PID, ClientAP CommNo.,RootAP IP,RootAP PID,RootAP CommNo.,INT,OPR,OPT,ASCII"

// PRF writes PRF records in the dump form.
func PRF(w io.Writer, n int64) error {
	b := newBudget(w, n)
	r := rng(4)
	for i := 1; ; i++ {
		if !b.put(r.prfEvent(i).dump()) {
			return b.done()
		}
	}
}

// PRFCSV writes PRF records in the CSV form, under a header row.
func PRFCSV(w io.Writer, n int64) error {
	b := newBudget(w, n)
	r := rng(4)
	if !b.put(CSVHeader + "\n") {
		return b.done()
	}
	for i := 1; ; i++ {
		if !b.put(r.prfEvent(i).csv()) {
			return b.done()
		}
	}
}

// Strace writes Linux strace output as "strace -f -T" prints it: eight
// processes with "[pid N]" prefixes and -T durations, file and memory calls
// with strings, flag sets, structures and signal sets, failing calls with
// errno, futex waits left unfinished and resumed later by the same pid, and
// signals. It has no time stamps, so that parsers without them (b3) can be
// measured on the same input.
func Strace(w io.Writer, n int64) error {
	b := newBudget(w, n)
	r := rng(4)
	const procs = 8
	var waiting [procs]bool
	dur := func() string { return fmt.Sprintf(" <0.%06d>", 1+r.intn(900)) }
	for i := 0; ; i++ {
		p := r.intn(procs)
		pid := 4000 + p
		prefix := fmt.Sprintf("[pid %5d] ", pid)
		var line string
		switch k := r.intn(20); {
		case waiting[p]:
			waiting[p] = false
			line = prefix + "<... futex resumed>) = 0" + dur()
		case k < 3:
			line = fmt.Sprintf(`%sopenat(AT_FDCWD, "/usr/lib/synth/lib%d.so.%d", O_RDONLY|O_CLOEXEC) = %d%s`, prefix, r.intn(500), r.intn(9), 3+r.intn(20), dur())
		case k < 5:
			line = fmt.Sprintf(`%sopenat(AT_FDCWD, "/opt/synth/glibc-hwcaps/x86-64-v%d/lib%d.so", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)%s`, prefix, 2+r.intn(3), r.intn(500), dur())
		case k < 8:
			line = fmt.Sprintf(`%sread(%d, "\177ELF\2\1\1\0\0\0\0\0\0\0\0\0\3\0>\0\1\0\0\0"..., 832) = 832%s`, prefix, 3+r.intn(20), dur())
		case k < 10:
			line = fmt.Sprintf(`%smmap(NULL, %d, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f%010x%s`, prefix, 4096*(1+r.intn(64)), r.next()&0xffffffffff, dur())
		case k < 12:
			line = fmt.Sprintf(`%sfstat(%d, {st_mode=S_IFREG|0644, st_size=%d, ...}) = 0%s`, prefix, 3+r.intn(20), r.intn(1<<20), dur())
		case k < 14:
			line = fmt.Sprintf(`%sclose(%d) = 0%s`, prefix, 3+r.intn(20), dur())
		case k < 16:
			msg := fmt.Sprintf("synthetic output line %d\\n", i) // the \n is written as two characters and counts as one byte
			line = fmt.Sprintf(`%swrite(1, "%s", %d) = %d%s`, prefix, msg, len(msg)-1, len(msg)-1, dur())
		case k < 18:
			line = fmt.Sprintf(`%srt_sigprocmask(SIG_BLOCK, ~[RTMIN RT_1], [INT CHLD], 8) = 0%s`, prefix, dur())
		case k < 19:
			waiting[p] = true
			line = fmt.Sprintf(`%sfutex(0x7f%08x, FUTEX_WAIT_PRIVATE, 0, NULL <unfinished ...>`, prefix, r.next()&0xffffffff)
		default:
			line = fmt.Sprintf(`%s--- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=%d, si_uid=1000, si_status=0, si_utime=0, si_stime=0} ---`, prefix, 5000+r.intn(1000))
		}
		if !b.put(line + "\n") {
			return b.done()
		}
	}
}
