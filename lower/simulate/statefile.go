package simulate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tracekit/tracekit/binfmt/stda"
	"github.com/tracekit/tracekit/binfmt/tracefmt"
)

// StateVersion is the only "version" a state file may give.
const StateVersion = 1

// StateError reports a state file that cannot be used: Path names the
// member ("hits[2].registers.EAX"), or Line and Col the place in the text
// for a syntax error; Msg says what is wrong.
type StateError struct {
	File      string // the file's name, when known
	Path      string
	Line, Col int
	Msg       string
}

// Error returns "FILE:LINE:COL: message" or "FILE: PATH: message".
func (e *StateError) Error() string {
	var b strings.Builder
	b.WriteString("state")
	if e.File != "" {
		b.Reset()
		b.WriteString(e.File)
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Col)
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// The state file as JSON. Numbers are kept raw so that they may be given
// as JSON numbers or as strings ("0x4B2C"), and so that a missing member
// can be told from a zero one.
type (
	rawState struct {
		Version         json.RawMessage            `json:"version"`
		Comment         string                     `json:"comment"`
		Registers       map[string]json.RawMessage `json:"registers"`
		Selectors       []rawSelector              `json:"selectors"`
		Objects         []rawObject                `json:"objects"`
		Memory          []rawRegion                `json:"memory"`
		PagesNotPresent []json.RawMessage          `json:"pages_not_present"`
		Times           *rawTimes                  `json:"times"`
		Hits            *[]rawHit                  `json:"hits"`
	}
	rawSelector struct {
		Comment    string          `json:"comment"`
		Selector   json.RawMessage `json:"selector"`
		Base       json.RawMessage `json:"base"`
		Limit      json.RawMessage `json:"limit"`
		Invalid    bool            `json:"invalid"`
		NotPresent bool            `json:"not_present"`
	}
	rawObject struct {
		Comment  string          `json:"comment"`
		Object   json.RawMessage `json:"object"`
		Base     json.RawMessage `json:"base"`
		Selector json.RawMessage `json:"selector"`
	}
	rawRegion struct {
		Comment string          `json:"comment"`
		Address json.RawMessage `json:"address"`
		Hex     *string         `json:"hex"`
		String  *string         `json:"string"`
		ASCIIZ  *string         `json:"asciiz"`
	}
	rawTimes struct {
		TraceOn  *string `json:"trace_on"`
		TraceOff *string `json:"trace_off"`
		Saved    *string `json:"saved"`
	}
	rawHit struct {
		Comment   string                     `json:"comment"`
		Minor     json.RawMessage            `json:"minor"`
		TP        *string                    `json:"tp"`
		PID       json.RawMessage            `json:"pid"`
		Time      *string                    `json:"time"`
		External  bool                       `json:"external"`
		Registers map[string]json.RawMessage `json:"registers"`
		Memory    []rawRegion                `json:"memory"`
	}
)

// OpenState reads and checks the named state file (see ParseState).
func OpenState(name string) (*State, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	st, err := ParseState(data)
	var se *StateError
	if errors.As(err, &se) {
		se.File = name
	}
	return st, err
}

// ReadState reads a state file from r and checks it (see ParseState).
func ReadState(r io.Reader) (*State, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return ParseState(data)
}

// ParseState reads a state file: a JSON object described in
// docs/simulate.md. A member the format does not know, a missing required
// member ("version", "hits", and in each hit "pid", "time" and one of
// "minor" or "tp"), a value out of its range, and anything after the
// object are errors; the error is a *StateError naming the member or the
// place.
//
// A state file as docs/simulate.md writes them is read by the streaming
// reader of RunFile, whose State is the one described here; anything it
// leaves (a mistake above all) is read with encoding/json, which gives the
// diagnostic.
func ParseState(data []byte) (*State, error) {
	if st, err := parseStream(data); err == nil {
		return st, nil
	}
	return parseStateJSON(data)
}

// parseStateJSON is ParseState with encoding/json alone.
func parseStateJSON(data []byte) (*State, error) {
	// encoding/json matches member names in any case and keeps the last
	// of two members of one name; the walk holds the names to the
	// format's spelling, once each, first.
	syntax := json.NewDecoder(bytes.NewReader(data))
	var v json.RawMessage // the decoder checks the syntax as it reads the value
	if err := syntax.Decode(&v); err != nil {
		return nil, jsonError(data, syntax, err)
	}
	walk := json.NewDecoder(bytes.NewReader(data))
	if err := checkMembers(data, walk, stateShape, ""); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var raw rawState
	if err := dec.Decode(&raw); err != nil {
		return nil, jsonError(data, dec, err)
	}
	start := skipSpace(data, dec.InputOffset())
	if tok, err := dec.Token(); err != io.EOF {
		line, col := lineCol(data, start)
		msg := "text after the state object"
		if err == nil {
			msg = fmt.Sprintf("text after the state object: %v", tok)
		}
		return nil, &StateError{Line: line, Col: col, Msg: msg}
	}
	return raw.state()
}

// shape gives the members an object may have (nil: any names), or the
// shape of an array's elements.
type shape struct {
	members map[string]*shape
	elem    *shape
}

var (
	anyMembers  = &shape{}
	regionShape = &shape{members: map[string]*shape{"comment": nil, "address": nil, "hex": nil, "string": nil, "asciiz": nil}}
	stateShape  = &shape{members: map[string]*shape{
		"version":           nil,
		"comment":           nil,
		"registers":         anyMembers,
		"selectors":         {elem: &shape{members: map[string]*shape{"comment": nil, "selector": nil, "base": nil, "limit": nil, "invalid": nil, "not_present": nil}}},
		"objects":           {elem: &shape{members: map[string]*shape{"comment": nil, "object": nil, "base": nil, "selector": nil}}},
		"memory":            {elem: regionShape},
		"pages_not_present": nil,
		"times":             {members: map[string]*shape{"trace_on": nil, "trace_off": nil, "saved": nil}},
		"hits": {elem: &shape{members: map[string]*shape{
			"comment": nil, "minor": nil, "tp": nil, "pid": nil, "time": nil, "external": nil,
			"registers": anyMembers, "memory": {elem: regionShape},
		}}},
	}}
)

// checkMembers reads one JSON value from dec and checks that each object
// in it has only the members sh allows, spelled as the format spells them,
// each once. Other mistakes are left to the decoder.
func checkMembers(data []byte, dec *json.Decoder, sh *shape, path string) error {
	tok, err := dec.Token()
	if err != nil {
		return jsonError(data, dec, err)
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			at := skipSpace(data, dec.InputOffset())
			tok, err := dec.Token()
			if err != nil {
				return jsonError(data, dec, err)
			}
			name, _ := tok.(string)
			p := name
			if path != "" {
				p = path + "." + name
			}
			var sub *shape
			if sh != nil && sh.members != nil {
				s, ok := sh.members[name]
				if !ok {
					line, col := lineCol(data, at)
					return &StateError{Line: line, Col: col, Msg: fmt.Sprintf("unknown member %q%s; the members are %s", name, where(path), memberList(sh))}
				}
				sub = s
			}
			if seen[name] {
				line, col := lineCol(data, at)
				return &StateError{Line: line, Col: col, Path: p, Msg: "given twice"}
			}
			seen[name] = true
			if err := checkMembers(data, dec, sub, p); err != nil {
				return err
			}
		}
	case json.Delim('['):
		var elem *shape
		if sh != nil {
			elem = sh.elem
		}
		for i := 0; dec.More(); i++ {
			if err := checkMembers(data, dec, elem, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	default:
		return nil
	}
	if _, err := dec.Token(); err != nil { // the closing delimiter
		return jsonError(data, dec, err)
	}
	return nil
}

func where(path string) string {
	if path == "" {
		return ""
	}
	return " in " + path
}

func memberList(sh *shape) string {
	names := make([]string, 0, len(sh.members))
	for n := range sh.members {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, " ")
}

// skipSpace returns the offset of the first byte at or after off that is
// not white space or a comma: where the next token starts.
func skipSpace(data []byte, off int64) int64 {
	for off < int64(len(data)) && strings.IndexByte(" \t\r\n,:", data[off]) >= 0 {
		off++
	}
	return off
}

// jsonError turns an error of the JSON decoder into a *StateError with a
// line and column where the decoder gives an offset.
func jsonError(data []byte, dec *json.Decoder, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	off := dec.InputOffset()
	msg := strings.TrimPrefix(err.Error(), "json: ")
	switch {
	case errors.As(err, &syn):
		off = syn.Offset - 1 // the offset after the bad byte
	case errors.As(err, &typ):
		off = typ.Offset - 1
		what := "a " + typ.Type.String()
		switch typ.Type.Kind().String() {
		case "slice":
			what = "an array"
		case "struct", "map", "ptr":
			what = "an object"
		case "string":
			what = "a string"
		case "bool":
			what = "true or false"
		}
		path := typ.Field
		if path == "" {
			path = "the state"
		}
		msg = fmt.Sprintf("%s: want %s, not %s", path, what, typ.Value)
	case errors.Is(err, io.EOF):
		return &StateError{Msg: "empty input: want a JSON object"}
	case errors.Is(err, io.ErrUnexpectedEOF):
		off = int64(len(data))
		msg = "unexpected end of input"
	}
	line, col := lineCol(data, off)
	return &StateError{Line: line, Col: col, Msg: msg}
}

// lineCol returns the 1-based line and column of byte offset off.
func lineCol(data []byte, off int64) (int, int) {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}

func errAt(path, format string, args ...any) error {
	return &StateError{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// number reads a non-negative integer given as a JSON number or as a
// string in Go syntax ("0x4B2C", "75", "0b101"), at most limit.
func number(raw json.RawMessage, path string, limit uint64) (uint64, error) {
	s := strings.TrimSpace(string(raw))
	var v uint64
	var err error
	if strings.HasPrefix(s, `"`) {
		var str string
		if err := json.Unmarshal(raw, &str); err != nil {
			return 0, errAt(path, "bad string %s", s)
		}
		v, err = strconv.ParseUint(strings.TrimSpace(str), 0, 64)
		if err != nil {
			return 0, errAt(path, "%q is not a number (write 75, \"75\" or \"0x4B\")", str)
		}
	} else {
		v, err = strconv.ParseUint(s, 10, 64)
		if err != nil {
			return 0, errAt(path, "%s is not a non-negative integer (write 75, \"75\" or \"0x4B\")", s)
		}
	}
	if v > limit {
		return 0, errAt(path, "%s is more than 0x%X", s, limit)
	}
	return v, nil
}

// required reads a number that must be present.
func required(raw json.RawMessage, path string, limit uint64) (uint64, error) {
	if raw == nil || string(raw) == "null" {
		return 0, errAt(path, "missing (required)")
	}
	return number(raw, path, limit)
}

func present(raw json.RawMessage) bool { return raw != nil && string(raw) != "null" }

func (raw *rawState) state() (*State, error) {
	st := &State{}
	v, err := required(raw.Version, "version", 0xFFFF)
	if err != nil {
		return nil, err
	}
	if v != StateVersion {
		return nil, errAt("version", "%d: this tracekit reads version %d", v, StateVersion)
	}
	regs, err := registers(raw.Registers, "registers")
	if err != nil {
		return nil, err
	}
	for r, v := range regs {
		st.Registers[r] = v
	}
	seen := map[uint16]int{}
	for i, rs := range raw.Selectors {
		path := fmt.Sprintf("selectors[%d]", i)
		s, err := rs.selector(path)
		if err != nil {
			return nil, err
		}
		if j, dup := seen[s.Value]; dup {
			return nil, errAt(path+".selector", "selector 0x%04X is described again (first in selectors[%d])", s.Value, j)
		}
		seen[s.Value] = i
		st.Selectors = append(st.Selectors, s)
	}
	objs := map[uint32]int{}
	for i, ro := range raw.Objects {
		path := fmt.Sprintf("objects[%d]", i)
		o, err := ro.object(path)
		if err != nil {
			return nil, err
		}
		if j, dup := objs[o.Number]; dup {
			return nil, errAt(path+".object", "object %d is described again (first in objects[%d])", o.Number, j)
		}
		objs[o.Number] = i
		st.Objects = append(st.Objects, o)
	}
	if st.Memory, err = regions(raw.Memory, "memory"); err != nil {
		return nil, err
	}
	for i, rp := range raw.PagesNotPresent {
		path := fmt.Sprintf("pages_not_present[%d]", i)
		a, err := required(rp, path, 0xFFFFFFFF)
		if err != nil {
			return nil, err
		}
		if a%PageSize != 0 {
			return nil, errAt(path, "0x%X is not the start of a page (a multiple of 0x%X)", a, PageSize)
		}
		st.PagesNotPresent = append(st.PagesNotPresent, uint32(a))
	}
	if t := raw.Times; t != nil {
		for _, f := range []struct {
			s    *string
			name string
			dst  *stda.TraceTime
		}{{t.TraceOn, "times.trace_on", &st.TraceOn}, {t.TraceOff, "times.trace_off", &st.TraceOff}} {
			if f.s == nil {
				continue
			}
			tm, err := dateTime(*f.s, f.name)
			if err != nil {
				return nil, err
			}
			*f.dst = stda.TraceTime{Year: uint16(tm.Year()), Month: uint8(tm.Month()), Day: uint8(tm.Day()),
				Hour: uint8(tm.Hour()), Minute: uint8(tm.Minute()), Second: uint8(tm.Second()), Hundredths: uint8(tm.Nanosecond() / 1e7)}
		}
		if t.Saved != nil {
			tm, err := dateTime(*t.Saved, "times.saved")
			if err != nil {
				return nil, err
			}
			st.Saved = tracefmt.DateTime{Hours: uint8(tm.Hour()), Minutes: uint8(tm.Minute()), Seconds: uint8(tm.Second()),
				Hundredths: uint8(tm.Nanosecond() / 1e7), Day: uint8(tm.Day()), Month: uint8(tm.Month()), Year: uint16(tm.Year()),
				TimeZone: -1, Weekday: uint8(tm.Weekday())}
		}
	}
	if raw.Hits == nil {
		return nil, errAt("hits", "missing (required; [] for no hits)")
	}
	for i, rh := range *raw.Hits {
		h, err := rh.hit(fmt.Sprintf("hits[%d]", i))
		if err != nil {
			return nil, err
		}
		st.Hits = append(st.Hits, h)
	}
	return st, nil
}

// registers reads a "registers" object. Names are taken in any case; each
// register may be named once.
func registers(raw map[string]json.RawMessage, path string) (map[Reg]uint32, error) {
	names := make([]string, 0, len(raw))
	for n := range raw {
		names = append(names, n)
	}
	slices.Sort(names)
	out := map[Reg]uint32{}
	for _, n := range names {
		p := path + "." + n
		r, ok := ParseReg(n)
		if !ok {
			hint := ""
			if len(n) == 2 {
				if w, ok := ParseReg("E" + n); ok && !w.Segment() {
					hint = fmt.Sprintf(" (give %s: 16-bit names read its low word)", w)
				}
			}
			return nil, errAt(p, "unknown register%s; the registers are %s", hint, strings.Join(regNames[:], " "))
		}
		if _, dup := out[r]; dup {
			return nil, errAt(p, "%s is given twice", r)
		}
		limit := uint64(0xFFFFFFFF)
		if r.Segment() {
			limit = 0xFFFF
		}
		v, err := required(raw[n], p, limit)
		if err != nil {
			return nil, err
		}
		out[r] = uint32(v)
	}
	return out, nil
}

func (rs *rawSelector) selector(path string) (Selector, error) {
	v, err := required(rs.Selector, path+".selector", 0xFFFF)
	if err != nil {
		return Selector{}, err
	}
	s := Selector{Value: uint16(v), Invalid: rs.Invalid, NotPresent: rs.NotPresent}
	if s.Invalid && s.NotPresent {
		return s, errAt(path, "a selector is invalid or not present, not both")
	}
	get := required
	if s.Invalid || s.NotPresent {
		get = func(raw json.RawMessage, path string, limit uint64) (uint64, error) {
			if !present(raw) {
				return 0, nil
			}
			return number(raw, path, limit)
		}
	}
	b, err := get(rs.Base, path+".base", 0xFFFFFFFF)
	if err != nil {
		return s, err
	}
	l, err := get(rs.Limit, path+".limit", 0xFFFFFFFF)
	if err != nil {
		return s, err
	}
	s.Base, s.Limit = uint32(b), uint32(l)
	return s, nil
}

func (ro *rawObject) object(path string) (Object, error) {
	n, err := required(ro.Object, path+".object", 0xFFFFFFFF)
	if err != nil {
		return Object{}, err
	}
	b, err := required(ro.Base, path+".base", 0xFFFFFFFF)
	if err != nil {
		return Object{}, err
	}
	o := Object{Number: uint32(n), Base: uint32(b)}
	if present(ro.Selector) {
		s, err := number(ro.Selector, path+".selector", 0xFFFF)
		if err != nil {
			return o, err
		}
		o.Selector, o.HasSelector = uint16(s), true
	}
	return o, nil
}

// regions reads a "memory" array.
func regions(raw []rawRegion, path string) ([]Region, error) {
	var out []Region
	for i, rr := range raw {
		r, err := rr.region(fmt.Sprintf("%s[%d]", path, i))
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

func (rr *rawRegion) region(path string) (Region, error) {
	a, err := required(rr.Address, path+".address", 0xFFFFFFFF)
	if err != nil {
		return Region{}, err
	}
	r := Region{Addr: uint32(a)}
	n := 0
	for _, p := range []*string{rr.Hex, rr.String, rr.ASCIIZ} {
		if p != nil {
			n++
		}
	}
	if n != 1 {
		return r, errAt(path, "give the bytes as one of \"hex\", \"string\" or \"asciiz\" (%d given)", n)
	}
	switch {
	case rr.Hex != nil:
		r.Data, err = hexBytes(*rr.Hex, path+".hex")
	case rr.String != nil:
		r.Data, err = latin1(*rr.String, path+".string")
	default:
		r.Data, err = latin1(*rr.ASCIIZ, path+".asciiz")
		r.Data = append(r.Data, 0)
	}
	if err != nil {
		return r, err
	}
	if uint64(r.Addr)+uint64(len(r.Data)) > 1<<32 {
		return r, errAt(path, "%d bytes at 0x%08X run past the 4 GiB address space", len(r.Data), r.Addr)
	}
	return r, nil
}

// hexBytes reads pairs of hex digits; blanks may separate the pairs.
func hexBytes(s, path string) ([]byte, error) {
	var out []byte
	digit := func(c byte) int {
		switch {
		case '0' <= c && c <= '9':
			return int(c - '0')
		case 'a' <= c && c <= 'f':
			return int(c-'a') + 10
		case 'A' <= c && c <= 'F':
			return int(c-'A') + 10
		}
		return -1
	}
	for i := 0; i < len(s); {
		c := s[i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			i++
			continue
		}
		if i+1 >= len(s) || digit(c) < 0 || digit(s[i+1]) < 0 {
			return nil, errAt(path, "character %d: want pairs of hex digits, found %q", i+1, s[i:min(i+2, len(s))])
		}
		out = append(out, byte(digit(c)<<4|digit(s[i+1])))
		i += 2
	}
	return out, nil
}

// latin1 turns a JSON string into bytes, one per character; characters
// above U+00FF have no byte.
func latin1(s, path string) ([]byte, error) {
	out := make([]byte, 0, len(s))
	for i, r := range s {
		if r > 0xFF {
			return nil, errAt(path, "character %q at byte %d is not in Latin-1 (U+0000-U+00FF); give such bytes with \"hex\"", r, i)
		}
		out = append(out, byte(r))
	}
	return out, nil
}

// dateTime reads "YYYY-MM-DD hh:mm:ss.hh".
func dateTime(s, path string) (time.Time, error) {
	t, err := time.Parse("2006-01-02 15:04:05.00", s)
	if err != nil || t.Year() > 0xFFFF {
		return t, errAt(path, "%q: want a date and time as \"1995-03-01 14:02:00.00\"", s)
	}
	return t, nil
}

// timestamp reads a hit's "hh:mm:ss.hh".
func timestamp(s, path string) (stda.Timestamp, error) {
	t, field := parseTimestamp(s)
	switch {
	case field == len(timeLimits):
		return stda.Timestamp{}, errAt(path, "%q: want a time as \"14:02:01.00\" (hours, minutes, seconds, hundredths)", s)
	case field >= 0:
		f := (s[3*field]-'0')*10 + s[3*field+1] - '0'
		return stda.Timestamp{}, errAt(path, "%q: field %d is %d, at most %d", s, field+1, f, timeLimits[field]-1)
	}
	return t, nil
}

// timeLimits bounds the fields of a time stamp: hours, minutes, seconds,
// hundredths.
var timeLimits = [4]uint8{24, 60, 60, 100}

// parseTimestamp reads "hh:mm:ss.hh". It returns -1 and the time, or the
// index of the first field out of range, or len(timeLimits) when the form
// is wrong (before any field is found out of range).
func parseTimestamp[T string | []byte](s T) (stda.Timestamp, int) {
	if len(s) != 11 || s[2] != ':' || s[5] != ':' || s[8] != '.' {
		return stda.Timestamp{}, len(timeLimits)
	}
	var f [4]uint8
	for i, lim := range timeLimits {
		a, b := s[3*i], s[3*i+1]
		if a < '0' || a > '9' || b < '0' || b > '9' {
			return stda.Timestamp{}, len(timeLimits)
		}
		f[i] = (a-'0')*10 + b - '0'
		if f[i] >= lim {
			return stda.Timestamp{}, i
		}
	}
	return stda.Timestamp{Len: 4, Hours: f[0], Minutes: f[1], Seconds: f[2], Hundredths: f[3]}, -1
}

// address reads a hit's "tp": "OBJECT:OFFSET", both hex, with or without
// 0x, as a MAP file or the TDF dump prints them ("0001:00000DC0").
func address(s, path string) (obj, off uint32, err error) {
	a, b, ok := strings.Cut(s, ":")
	parse := func(x string) (uint32, bool) {
		x = strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(x), "0x"), "0X")
		v, err := strconv.ParseUint(x, 16, 32)
		return uint32(v), err == nil && x != ""
	}
	o, ok1 := parse(a)
	f, ok2 := parse(b)
	if !ok || !ok1 || !ok2 {
		return 0, 0, errAt(path, "%q: want OBJECT:OFFSET in hex, as \"0001:00000DC0\"", s)
	}
	return o, f, nil
}

func (rh *rawHit) hit(path string) (Hit, error) {
	h := Hit{External: rh.External}
	switch {
	case present(rh.Minor) && rh.TP != nil:
		return h, errAt(path, "give the tracepoint by \"minor\" or by \"tp\", not both")
	case present(rh.Minor):
		v, err := number(rh.Minor, path+".minor", 0xFFFF)
		if err != nil {
			return h, err
		}
		h.Minor = uint16(v)
	case rh.TP != nil:
		o, f, err := address(*rh.TP, path+".tp")
		if err != nil {
			return h, err
		}
		h.ByAddress, h.Object, h.Offset = true, o, f
	default:
		return h, errAt(path, "missing the tracepoint: give \"minor\" or \"tp\"")
	}
	pid, err := required(rh.PID, path+".pid", 0xFFFF)
	if err != nil {
		return h, err
	}
	h.PID = uint16(pid)
	if rh.Time == nil {
		return h, errAt(path+".time", "missing (required)")
	}
	if h.Time, err = timestamp(*rh.Time, path+".time"); err != nil {
		return h, err
	}
	if rh.Registers != nil {
		if h.Registers, err = registers(rh.Registers, path+".registers"); err != nil {
			return h, err
		}
	}
	if h.Memory, err = regions(rh.Memory, path+".memory"); err != nil {
		return h, err
	}
	return h, nil
}
