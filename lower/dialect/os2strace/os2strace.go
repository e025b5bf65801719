// Package os2strace lowers the text files of OS/2 SMP's STRACE POST to
// records: the ASCII dump of the trace hooks (dialect "os2strace") and the
// module table STRACE.MTE (dialect "os2mte").
//
// A hook line becomes one instant record: event "0xMM/0xmm" (major/minor),
// cpu, time as written ("HIGH:LOW"), the data by hook type (32-bit words as
// integers, bytes, items) and attrs.hook. The time-stamp counter becomes
// ts_ns, counted from the first hook of the input, once the CPU rate is
// known: from Config.CPUHz, which wins, or from the start-up record (hook
// type 0x2218), which is decoded into attrs.startup.
package os2strace

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"regexp"
	"strconv"
	"strings"

	"github.com/tracekit/tracekit/ast"
	"github.com/tracekit/tracekit/ast/diag"
	os2ast "github.com/tracekit/tracekit/ast/os2strace"
	grammar "github.com/tracekit/tracekit/grammar/os2strace"
	"github.com/tracekit/tracekit/lower/dialect/lowering"
	"github.com/tracekit/tracekit/lower/record"
)

// Names of the dialects.
const (
	StraceName = "os2strace"
	MTEName    = "os2mte"
)

// Strace returns the registry entry of the STRACE POST ASCII dump.
func Strace() lowering.Dialect {
	return lowering.Dialect{
		Name:        StraceName,
		Description: "OS/2 SMP STRACE POST ASCII dump (STRACE.OUT): one hook a line",
		Patterns:    []string{"*.out", "strace*"},
		Sniff:       sniffStrace,
		NewLowerer: func(cfg lowering.Config, out lowering.Output) lowering.Lowerer {
			return NewHookLowerer(cfg, out, (&grammar.LineParser{Reuse: true}).Hook)
		},
		NewParser:  func(string) lowering.Parser { return lowering.PerLine(grammar.ParseHook) },
		NewSettler: Settler,
	}
}

// MTE returns the registry entry of the STRACE.MTE module table.
func MTE() lowering.Dialect {
	return lowering.Dialect{
		Name:        MTEName,
		Description: "OS/2 SMP STRACE.MTE module table: segment, linear address, size, PID, PTDA, module",
		Patterns:    []string{"*.mte"},
		Sniff:       sniffMTE,
		NewLowerer: func(cfg lowering.Config, out lowering.Output) lowering.Lowerer {
			return NewModuleLowerer(cfg, out, (&grammar.LineParser{Reuse: true}).Module)
		},
		NewParser:  func(string) lowering.Parser { return lowering.PerLine(grammar.ParseModule) },
		NewSettler: func(lowering.Config) lowering.Settler { return func(*record.Record, lowering.Note, *int64) {} },
	}
}

var (
	hookRE   = regexp.MustCompile(`^\s*[0-9A-Fa-f]{1,4}\s+[0-9A-Fa-f]{1,2}\s+[0-9A-Fa-f]{1,4}\s+\d{1,10}:\d{1,10}\s+\d{1,3}(\s|$)`)
	moduleRE = regexp.MustCompile(`^\s*[0-9A-Fa-f]{4}\s+[0-9A-Fa-f]{8}\s+[0-9A-Fa-f]{8}\s+[0-9A-Fa-f]{8}\s+[0-9A-Fa-f]{8}\s+\S`)
)

func sniffAll(head []byte, re *regexp.Regexp) bool {
	lines := lowering.FirstLines(head, 4)
	if len(lines) == 0 {
		return false
	}
	for _, l := range lines {
		if !re.Match(l) {
			return false
		}
	}
	return true
}

func sniffStrace(head []byte) bool { return sniffAll(head, hookRE) }
func sniffMTE(head []byte) bool    { return sniffAll(head, moduleRE) }

// The hook-type categories (the high byte of the hook type).
const (
	cat32Bit    = 0x01 // SFT_HOOK_32BIT: ULONG words
	catData     = 0x02 // SFT_HOOK_DATA: a buffer of bytes
	catVarData  = 0x04 // SFT_HOOK_VARDATA: items that had ULONG length prefixes
	catVarData2 = 0x08 // SFT_HOOK_VARDATA2: items that had USHORT length prefixes
	catTimeHi   = 0x11 // SFT_HOOK_TIMEHI: the high half of the time stamp changed
	catStartup  = 0x22 // SFT_HOOK_STARTUP: STRACE started
	catMTE      = 0x34 // SFT_HOOK_MTE: module-table marker
)

var categoryNames = map[uint64]string{
	cat32Bit: "32bit", catData: "data", catVarData: "vardata", catVarData2: "vardata2",
	catTimeHi: "timehi", catStartup: "startup", catMTE: "mte",
}

// HookLowerer lowers the lines of one STRACE POST ASCII dump.
type HookLowerer struct {
	cfg    lowering.Config
	out    lowering.Output
	noted  lowering.NotedOutput // out when it takes notes (lowered on several goroutines), else nil
	parse  os2ast.HookParser
	origin uint64 // time stamp of the first hook
	seen   bool   // origin is set
	rate   uint64 // CPU rate from the start-up record, 0 until known
	hz     *big.Rat

	// The record and what it points to are reused from line to line
	// (lowering.Output.Record does not keep them), and the strings and
	// boxed attrs that repeat are remembered, so that the common hook costs
	// no allocation of its own.
	rec               record.Record
	ownAttrs          bool   // rec.Attrs is the record's own map, not a shared one
	noteRate          uint64 // the rate the record's start-up data gives, 0 if none
	cpu, major, minor uint64
	ts                int64
	buf               []byte
	events            map[uint32]string
	hooks             map[uint64]hookAttrs
	recentEvents      *[recentEventSlots]recentEvent // before events: no hashing for the usual pairs
	recentHooks       [256]recentHook                // before hooks
}

// recentEvent and recentHook are the slots of direct-mapped caches in
// front of the maps; a zero slot is empty (key 0 is never stored).
type recentEvent struct {
	key   uint32 // major<<16 | minor, plus 1<<31
	event string
}

type recentHook struct {
	key uint64 // the hook type, plus 1<<63
	hookAttrs
}

// hookAttrs is the attrs of one hook type and their JSON.
type hookAttrs struct {
	attrs record.Attrs
	json  []byte
}

// maxEvents bounds the remembered event names.
const maxEvents = 4096

// recentEventSlots is the size of the cache in front of the event names:
// a trace has some hundreds to a few thousand major/minor pairs.
const recentEventSlots = 4096

// NewHookLowerer returns a lowering that parses lines with parse.
func NewHookLowerer(cfg lowering.Config, out lowering.Output, parse os2ast.HookParser) *HookLowerer {
	l := &HookLowerer{cfg: cfg, out: out, parse: parse}
	l.noted, _ = out.(lowering.NotedOutput)
	if cfg.CPUHz > 0 && !math.IsInf(cfg.CPUHz, 0) && !math.IsNaN(cfg.CPUHz) {
		l.hz = new(big.Rat).SetFloat64(cfg.CPUHz)
	}
	return l
}

// Line lowers one hook line.
func (l *HookLowerer) Line(pos ast.Pos, text string) error {
	h, diags := l.parse(pos, text)
	if len(diags) > 0 {
		lowering.Report(l.out, diags)
	}
	if h == nil {
		return nil
	}
	rec, stamp, ok := l.lower(h, text)
	if !ok {
		return nil
	}
	if l.noted != nil {
		// Lowered on several goroutines: the settler sets the time.
		return l.noted.RecordNote(rec, lowering.Note{A: stamp, B: l.noteRate})
	}
	l.settle(rec, stamp, &l.ts)
	return l.out.Record(rec)
}

// Settler returns the settler of the dialect's parallel lowering: it sets
// ts_ns from the time-stamp count (note A), counted from the first record,
// once the CPU rate is known (Config.CPUHz, or the start-up record's rate
// in note B).
func Settler(cfg lowering.Config) lowering.Settler {
	l := NewHookLowerer(cfg, nil, nil)
	return func(r *record.Record, n lowering.Note, ts *int64) {
		if n.B > 0 {
			l.rate = n.B
		}
		l.settle(r, n.A, ts)
	}
}

// settle sets what depends on the records before: the origin of the time
// stamps and, when the rate is known, ts_ns (stored in *ts).
func (l *HookLowerer) settle(rec *record.Record, stamp uint64, ts *int64) {
	if !l.seen {
		l.origin, l.seen = stamp, true
	}
	if ns, ok := l.nanos(stamp); ok {
		*ts = ns
		rec.TSNs = ts
	}
}

// End does nothing: a hook line stands alone.
func (l *HookLowerer) End(ast.Pos) error { return nil }

func (l *HookLowerer) warn(p ast.Pos, code diag.Code, msg string) {
	lowering.Warn(l.out, p, code, msg)
}

func (l *HookLowerer) fail(p ast.Pos, code diag.Code, msg string) {
	lowering.Fail(l.out, p, code, msg, 1)
}

// lower turns a hook into a record; false when the data is malformed (the
// line is reported and skipped).
func (l *HookLowerer) lower(h *os2ast.Hook, line string) (*record.Record, uint64, bool) {
	typ := h.Type.Value
	cat, count := typ>>8, int(typ&0xFF)
	l.cpu, l.major, l.minor = h.CPU.Value, h.Major.Value, h.Minor.Value
	l.ownAttrs, l.noteRate = false, 0
	rec := &l.rec
	if rec.Phase == "" {
		// The first record: the fields every record of the input has
		// alike are set once. Of the others, a lowering sets only those
		// set below, and the output only Seq and the settling TSNs.
		*rec = record.Record{
			Dialect: l.cfg.Dialect,
			Source:  l.cfg.Source,
			CPU:     &l.cpu,
			Major:   &l.major,
			Minor:   &l.minor,
			Phase:   record.Instant,
		}
	}
	rec.Line, rec.Seq, rec.TSNs = h.Pos.Line, 0, nil
	rec.Time = timeText(h, line)
	rec.Event = l.event(h.Major.Value, h.Minor.Value)
	rec.Args, rec.Data = rec.Args[:0], rec.Data[:0]
	if l.cfg.NoAttrs {
		rec.Attrs, rec.AttrsJSON = nil, nil
	} else {
		ha := l.hookAttrs(typ)
		rec.Attrs, rec.AttrsJSON = ha.attrs, ha.json
	}
	stamp := h.High.Value<<32 | h.Low.Value

	switch cat {
	case cat32Bit, catTimeHi:
		var first uint64
		for i := range h.Data {
			w := &h.Data[i]
			v, ok := l.hexWord(w, 8)
			if !ok {
				return nil, 0, false
			}
			if i == 0 {
				first = v
			}
			if !l.cfg.NoArgs {
				rec.Args = append(rec.Args, record.UintArg(v, w.Text))
			}
			rec.Data = append(rec.Data, w.Text)
		}
		l.checkCount(h, len(h.Data), count, "32-bit words")
		if cat == catTimeHi && len(h.Data) == 1 {
			l.setAttr(rec, "time_high", first)
			if first != h.High.Value {
				l.warn(h.Data[0].Pos, os2ast.CodeTimeHigh, "time-high record gives "+strconv.FormatUint(first, 10)+
					" but its own time stamp's high half is "+h.High.Text)
			}
		}
	case catData, catStartup:
		buf, n, ok := l.dataBytes(h, !l.cfg.NoArgs || cat == catStartup)
		if !ok {
			return nil, 0, false
		}
		if len(h.Data) > 0 {
			if !l.cfg.NoArgs {
				rec.Args = append(rec.Args, record.BytesArg(buf))
			}
			text := h.Data[0].Text
			if len(h.Data) > 1 {
				var sb strings.Builder
				for _, w := range h.Data {
					sb.WriteString(w.Text)
				}
				text = sb.String()
			}
			rec.Data = append(rec.Data, text)
		}
		l.checkCount(h, n, count, "bytes")
		if cat == catStartup {
			l.startup(h, buf, rec)
		}
	case catVarData, catVarData2:
		buf, _, ok := l.dataBytes(h, !l.cfg.NoArgs)
		if !ok {
			return nil, 0, false
		}
		for i := range h.Data {
			w := &h.Data[i]
			if !l.cfg.NoArgs {
				n := len(w.Text) / 2
				rec.Args = append(rec.Args, record.BytesArg(buf[:n:n]))
				buf = buf[n:]
			}
			rec.Data = append(rec.Data, w.Text)
		}
		l.checkCount(h, len(h.Data), count, "items")
	case catMTE:
		words := make([]string, len(h.Data))
		for i, w := range h.Data {
			words[i] = w.Text
		}
		marker := strings.Join(words, " ")
		l.setAttr(rec, "marker", marker)
		if !strings.Contains(strings.ToLower(marker), "strace.mte") {
			at := h.Pos
			if len(h.Data) > 0 {
				at = h.Data[0].Pos
			}
			l.warn(at, os2ast.CodeMarker, "module-table marker "+strconv.Quote(marker)+" does not name strace.mte")
		}
	default:
		for _, w := range h.Data {
			if !isHex(w.Text) {
				l.fail(w.Pos, os2ast.CodeDataWord, fmt.Sprintf("data word %q is not hex", w.Text))
				return nil, 0, false
			}
			rec.Data = append(rec.Data, w.Text)
		}
		l.warn(h.Type.Pos, os2ast.CodeCategory, fmt.Sprintf("hook type 0x%04x is of no category the reference names; data kept as written", typ))
	}
	return rec, stamp, true
}

// timeText is the time stamp as written, "HIGH:LOW": a slice of the line
// when the halves stand there with just the colon between them.
func timeText(h *os2ast.Hook, line string) string {
	start := h.High.Pos.Offset - h.Pos.Offset
	end := h.Low.Pos.Offset - h.Pos.Offset + len(h.Low.Text)
	if start >= 0 && end <= len(line) && end-start == len(h.High.Text)+1+len(h.Low.Text) &&
		line[start:start+len(h.High.Text)] == h.High.Text && line[start+len(h.High.Text)] == ':' {
		return line[start:end]
	}
	return h.High.Text + ":" + h.Low.Text
}

// event is "0xMM/0xmm", remembered for the first maxEvents pairs.
func (l *HookLowerer) event(major, minor uint64) string {
	key := uint32(major)<<16 | uint32(minor)
	if l.recentEvents == nil {
		l.recentEvents = new([recentEventSlots]recentEvent)
	}
	slot := &l.recentEvents[(key*0x9E3779B1)>>20] // Fibonacci hashing: the top 12 bits
	if slot.key == key|1<<31 {
		return slot.event
	}
	if e, ok := l.events[key]; ok {
		*slot = recentEvent{key | 1<<31, e}
		return e
	}
	var b [24]byte
	e := string(strconv.AppendUint(append(strconv.AppendUint(append(b[:0], "0x"...), major, 16), "/0x"...), minor, 16))
	if l.events == nil {
		l.events = map[uint32]string{}
	}
	if len(l.events) < maxEvents {
		l.events[key] = e
		*slot = recentEvent{key | 1<<31, e}
	}
	return e
}

// hookAttrs returns the attrs "hook" (0xTTTT) and "hook_type" of a hook
// type and their JSON: one map per type, shared by its records and never
// changed (setAttr copies it first).
func (l *HookLowerer) hookAttrs(typ uint64) hookAttrs {
	slot := &l.recentHooks[uint32(typ)*0x9E3779B1>>24] // Fibonacci hashing: the top 8 bits
	if slot.key == typ|1<<63 {
		return slot.hookAttrs
	}
	if a, ok := l.hooks[typ]; ok {
		*slot = recentHook{typ | 1<<63, a}
		return a
	}
	name, known := categoryNames[typ>>8]
	if !known {
		name = "unknown"
	}
	a := hookAttrs{attrs: record.Attrs{"hook": fmt.Sprintf("0x%04x", typ), "hook_type": name}}
	a.json, _ = record.AppendAttrsJSON(nil, a.attrs) // strings only: no error
	if l.hooks == nil {
		l.hooks = map[uint64]hookAttrs{}
	}
	l.hooks[typ] = a // at most 65536 hook types
	*slot = recentHook{typ | 1<<63, a}
	return a
}

// setAttr sets an attr of the record being lowered, on its own copy of the
// shared map; nothing when no attrs are written (Config.NoAttrs).
func (l *HookLowerer) setAttr(rec *record.Record, key string, v any) {
	if l.cfg.NoAttrs {
		return
	}
	if !l.ownAttrs {
		m := make(record.Attrs, len(rec.Attrs)+1)
		for k, x := range rec.Attrs {
			m[k] = x
		}
		rec.Attrs, rec.AttrsJSON, l.ownAttrs = m, nil, true
	}
	rec.Attrs[key] = v
}

func (l *HookLowerer) checkCount(h *os2ast.Hook, got, want int, what string) {
	if got != want {
		l.warn(h.Type.Pos, os2ast.CodeDataCount, fmt.Sprintf("hook type %s announces %d %s, the line has %d", h.Type.Text, want, what, got))
	}
}

// hexWord reads a data word of at most digits hex digits.
func (l *HookLowerer) hexWord(w *os2ast.Word, digits int) (uint64, bool) {
	if v, ok := quickHex(w.Text, digits); ok {
		return v, true
	}
	v, err := strconv.ParseUint(w.Text, 16, 64)
	if err != nil || len(w.Text) > digits || strings.HasPrefix(w.Text, "+") {
		l.fail(w.Pos, os2ast.CodeDataWord, fmt.Sprintf("data word %q is not a 32-bit hex word", w.Text))
		return 0, false
	}
	return v, true
}

// quickHex reads 1 to digits (at most 16) hex digits without strconv;
// false sends the caller to the general path. No branch a digit: a byte
// that is no hex digit leaves its mark in bad.
func quickHex(s string, digits int) (uint64, bool) {
	if len(s) == 0 || len(s) > digits {
		return 0, false
	}
	var (
		v   uint64
		bad byte
	)
	for i := 0; i < len(s); i++ {
		d := hexValue[s[i]]
		bad |= d
		v = v<<4 | uint64(d&0xF)
	}
	return v, bad&notHex == 0
}

// hexValue is the value of each hex digit; the other bytes have notHex.
var hexValue = func() (t [256]byte) {
	for c := range t {
		if d, ok := hexDigit(byte(c)); ok {
			t[c] = d
		} else {
			t[c] = notHex
		}
	}
	return t
}()

// notHex marks a byte that is no hex digit in hexValue.
const notHex = 0x10

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return s != ""
}

// dataBytes checks that every data word of h is hex bytes and counts
// them; when keep is set it also decodes them, one word after the other,
// into the lowerer's reused buffer.
func (l *HookLowerer) dataBytes(h *os2ast.Hook, keep bool) (buf []byte, n int, ok bool) {
	buf = l.buf[:0]
	for i := range h.Data {
		if buf, ok = l.hexBytes(buf, &h.Data[i], keep); !ok {
			return nil, 0, false
		}
		n += len(h.Data[i].Text) / 2
	}
	l.buf = buf
	return buf, n, true
}

// hexBytes checks a data word of hex digit pairs, appending its bytes to
// dst when keep is set.
func (l *HookLowerer) hexBytes(dst []byte, w *os2ast.Word, keep bool) ([]byte, bool) {
	t := w.Text
	if len(t)%2 != 0 {
		l.fail(w.Pos, os2ast.CodeDataWord, fmt.Sprintf("data word %q is not whole hex bytes", t))
		return dst, false
	}
	var bad byte
	if keep {
		for i := 0; i+1 < len(t); i += 2 {
			hi, lo := hexValue[t[i]], hexValue[t[i+1]]
			bad |= hi | lo
			dst = append(dst, hi<<4|lo&0xF)
		}
	} else {
		for i := 0; i < len(t); i++ {
			bad |= hexValue[t[i]]
		}
	}
	if bad&notHex != 0 {
		l.fail(w.Pos, os2ast.CodeDataWord, fmt.Sprintf("data word %q is not hex bytes", t))
		return dst, false
	}
	return dst, true
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// startup decodes the SFTSTARTUP data of a start-up hook: VerMajor,
// VerMinor, RevLettr, DayDate, MonDate, pad1[3], YrsDate (USHORT), HrsTime,
// MinTime, SecTime, HunTime, pad2[2], ulNumCPUs (ULONG), ulCPURate[] (a
// ULONG a processor), little-endian.
func (l *HookLowerer) startup(h *os2ast.Hook, b []byte, rec *record.Record) {
	const fixed = 20
	if len(b) < fixed {
		l.warn(h.Type.Pos, os2ast.CodeStartup, fmt.Sprintf("start-up record of %d bytes is too short to decode (want at least %d)", len(b), fixed))
		return
	}
	le16 := func(i int) uint64 { return uint64(b[i]) | uint64(b[i+1])<<8 }
	le32 := func(i int) uint64 { return le16(i) | le16(i+2)<<16 }
	ncpu := le32(16)
	var rates []uint64
	for i := fixed; i+4 <= len(b) && uint64(len(rates)) < ncpu; i += 4 {
		rates = append(rates, le32(i))
	}
	if uint64(len(rates)) < ncpu {
		l.warn(h.Type.Pos, os2ast.CodeStartup, fmt.Sprintf("start-up record names %d processors but gives %d rates", ncpu, len(rates)))
	}
	rateArgs := make([]record.Arg, len(rates))
	hz := make([]any, len(rates))
	for i, r := range rates {
		rateArgs[i] = record.UintArg(r, "")
		hz[i] = r
	}
	u := func(name string, v uint64) record.Arg { return record.UintArg(v, "").Named(name) }
	rec.Args = []record.Arg{
		u("VerMajor", uint64(b[0])), u("VerMinor", uint64(b[1])), u("RevLettr", uint64(b[2])),
		u("DayDate", uint64(b[3])), u("MonDate", uint64(b[4])), u("YrsDate", le16(8)),
		u("HrsTime", uint64(b[10])), u("MinTime", uint64(b[11])), u("SecTime", uint64(b[12])), u("HunTime", uint64(b[13])),
		u("ulNumCPUs", ncpu), record.StructArg(rateArgs...).Named("ulCPURate"),
	}
	version := fmt.Sprintf("%d.%d", b[0], b[1])
	if b[2] >= 'A' && b[2] <= 'Z' || b[2] >= 'a' && b[2] <= 'z' {
		version += string(rune(b[2]))
	}
	l.setAttr(rec, "startup", map[string]any{
		"version": version,
		"date":    fmt.Sprintf("%04d-%02d-%02d", le16(8), b[4], b[3]),
		"time":    fmt.Sprintf("%02d:%02d:%02d.%02d", b[10], b[11], b[12], b[13]),
		"cpus":    ncpu,
		"cpu_hz":  hz,
	})
	if len(rates) > 0 && rates[0] > 0 {
		// Time stamps are normalized across processors; the first
		// processor's rate converts them.
		l.rate = rates[0]
		l.noteRate = rates[0]
	}
}

// nanos converts a time stamp to nanoseconds from the first hook, when the
// rate is known and the result fits.
func (l *HookLowerer) nanos(stamp uint64) (int64, bool) {
	neg := stamp < l.origin
	delta := stamp - l.origin
	if neg {
		delta = l.origin - stamp
	}
	var ns uint64
	switch {
	case l.hz != nil:
		q := new(big.Rat).SetInt(new(big.Int).SetUint64(delta))
		q.Mul(q, big.NewRat(1e9, 1))
		q.Quo(q, l.hz)
		n := new(big.Int).Quo(q.Num(), q.Denom())
		if !n.IsUint64() {
			return 0, false
		}
		ns = n.Uint64()
	case l.rate > 0:
		hi, lo := bits.Mul64(delta, 1e9)
		if hi >= l.rate {
			return 0, false
		}
		ns, _ = bits.Div64(hi, lo, l.rate)
	default:
		return 0, false
	}
	if ns > math.MaxInt64 {
		return 0, false
	}
	if neg {
		return -int64(ns), true
	}
	return int64(ns), true
}

// ModuleLowerer lowers the lines of one STRACE.MTE.
type ModuleLowerer struct {
	cfg   lowering.Config
	out   lowering.Output
	parse os2ast.ModuleParser
	rec   record.Record // reused: lowering.Output.Record does not keep it
	pid   uint64
}

// NewModuleLowerer returns a lowering that parses lines with parse.
func NewModuleLowerer(cfg lowering.Config, out lowering.Output, parse os2ast.ModuleParser) *ModuleLowerer {
	return &ModuleLowerer{cfg: cfg, out: out, parse: parse}
}

// Line lowers one module-table line: an instant record whose event is the
// module path, with the pid and the segment, linear address, size and PTDA
// as named arguments.
func (l *ModuleLowerer) Line(pos ast.Pos, text string) error {
	m, diags := l.parse(pos, text)
	lowering.Report(l.out, diags)
	if m == nil {
		return nil
	}
	num := func(name string, n os2ast.Number) record.Arg { return record.UintArg(n.Value, n.Text).Named(name) }
	l.pid = m.PID.Value
	l.rec = record.Record{
		Dialect: l.cfg.Dialect,
		Source:  l.cfg.Source,
		Line:    m.Pos.Line,
		PID:     &l.pid,
		Event:   m.Path.Text,
		Phase:   record.Instant,
		Args: append(l.rec.Args[:0],
			num("segment", m.Segment), num("linear", m.Linear), num("size", m.Size), num("ptda", m.PTDA)),
	}
	return l.out.Record(&l.rec)
}

// End does nothing: a module line stands alone.
func (l *ModuleLowerer) End(ast.Pos) error { return nil }
