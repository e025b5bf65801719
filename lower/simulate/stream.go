package simulate

import (
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/tracekit/tracekit/binfmt/tdf"
)

// RunFile runs the hits of the named state file as Run runs those of
// OpenState's State, with the same Result and the same errors, but reads
// the hits as they are run: a state file whose "hits" come last (after
// the other members, as docs/simulate.md writes them) is never held whole,
// so that memory does not grow with the number of hits when opt.Hit is
// set. Whatever the streaming reader does not take on (a \u escape,
// members after "hits", anything that is not as ParseState would accept
// it) and any error make RunFile read the file again with OpenState and
// Run, which gives ParseState's diagnostic in its order; opt.Hit then
// sees the hits again from hit 0.
func RunFile(t *tdf.File, name string, opt Options) (*Result, error) {
	if res, err := runStream(t, name, opt, streamBufSize); err == nil {
		return res, nil
	}
	st, err := OpenState(name)
	if err != nil {
		return nil, err
	}
	return Run(t, st, opt)
}

// errDecline is what the streaming reader returns for input it leaves to
// ParseState.
var errDecline = errors.New("simulate: the state file needs the whole-file reader")

// streamBufSize is the size of the streaming reader's buffer.
const streamBufSize = 64 << 10

// runStream runs the hits of the named file with the streaming reader,
// whose buffer is bufSize bytes.
func runStream(t *tdf.File, name string, opt Options, bufSize int) (*Result, error) {
	if t == nil {
		return nil, errDecline
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sr := &streamReader{r: f, buf: make([]byte, bufSize)}
	sr.refill()
	st, err := sr.header()
	if err != nil {
		return nil, err
	}
	// The hits are read on a goroutine of their own, a batch at a time,
	// while the machine runs those read before: reading the JSON and
	// running the programs take a core each. Batches go round between the
	// two, so that memory stays what a few batches hold.
	full := make(chan *hitBatch, 2)
	free := make(chan *hitBatch, 4)
	done := make(chan struct{})
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(done)
	wg.Go(func() {
		for {
			var b *hitBatch
			select {
			case b = <-free:
			default:
				b = &hitBatch{hits: make([]Hit, hitBatchSize)}
			}
			sr.fill(b)
			select {
			case full <- b:
			case <-done:
				return
			}
			if b.err != nil || b.end {
				return
			}
		}
	})
	var cur *hitBatch
	i := 0
	return run(t, st, opt, func() (*Hit, error) {
		for cur == nil || i == cur.n {
			if cur != nil {
				if cur.err != nil {
					return nil, cur.err
				}
				if cur.end {
					return nil, nil
				}
				free <- cur // the hits before it are done with
			}
			cur, i = <-full, 0
		}
		i++
		return &cur.hits[i-1], nil
	})
}

// hitBatchSize is how many hits a hitBatch holds.
const hitBatchSize = 256

// hitBatch is hits read ahead of the machine: hits[:n], then err (the
// reader's error after them) or end (no more hits).
type hitBatch struct {
	hits []Hit
	n    int
	err  error
	end  bool
}

// fill reads the next hits into b.
func (s *streamReader) fill(b *hitBatch) {
	b.n, b.err, b.end = 0, nil, false
	for b.n < len(b.hits) {
		s.dst = &b.hits[b.n]
		h, err := s.hit()
		if err != nil {
			b.err = err
			return
		}
		if h == nil {
			b.end = true
			return
		}
		b.n++
	}
}

// streamReader reads a state file's JSON text: the members before "hits"
// whole, then one hit at a time. It takes on only what ParseState accepts
// and reads alike; for anything else it returns errDecline.
//
// The text is read through a window, buf[pos:end]: each step (a member of
// the state before "hits", a hit, the end) is read from the window alone,
// by functions that take the window and an index into it and return the
// index after what they read. A step that runs past the window's end
// (errShort) is read again from its start once the window has been moved
// on and filled (refill); a step longer than the buffer makes it grow, so
// that the buffer holds the longest step, and nothing more.
type streamReader struct {
	r        io.Reader
	buf      []byte
	pos, end int
	eof      bool
	str      []byte // the last string read: in buf, or in scratch
	scratch  []byte // where str is built when it has escapes
	n        int    // hits read
	done     bool
	hit0     Hit  // where hit reads a hit, unless dst is set
	dst      *Hit // where hit reads the next hit
	// maps: a hit's registers go into Hit.Registers, as ParseState
	// gives them, rather than regSet and regVals
	maps bool
}

// parseStream reads a whole state file held in data with the streaming
// reader, its hits' registers in maps as ParseState gives them; errDecline
// for whatever the reader leaves to encoding/json.
func parseStream(data []byte) (*State, error) {
	// the window is data itself, read to its end
	sr := &streamReader{buf: data, end: len(data), eof: true, maps: true}
	st, err := sr.header()
	if err != nil {
		return nil, errDecline
	}
	for {
		h, err := sr.hit()
		if err != nil {
			return nil, errDecline
		}
		if h == nil {
			return st, nil
		}
		st.Hits = append(st.Hits, *h)
	}
}

// errShort is a step of the reading that runs past the end of the window.
var errShort = errors.New("simulate: the state text goes on past the buffer")

// step reads one step of the text with read, which is handed the window
// and the index of its first unread byte and returns the index after what
// it read; when it runs past the window's end the window is refilled and
// read is called again from the same place.
func (s *streamReader) step(read func(b []byte, i int) (int, error)) error {
	for {
		i, err := read(s.buf[:s.end], s.pos)
		if err == nil {
			s.pos = i
			return nil
		}
		if err != errShort || !s.refill() {
			return errDecline
		}
	}
}

// refill moves the unread text to the start of the buffer (growing it
// when the text fills it) and reads until the buffer is full or the input
// ends. It returns false when nothing more can be read.
func (s *streamReader) refill() bool {
	if s.eof {
		return false
	}
	n := copy(s.buf, s.buf[s.pos:s.end])
	if n == len(s.buf) {
		// One step fills the buffer: it grows, to hold the longest
		// member before "hits" (whose copy ParseState is handed) or the
		// longest hit.
		s.buf = append(s.buf, make([]byte, len(s.buf))...)
	}
	s.pos, s.end = 0, n
	for s.end < len(s.buf) && !s.eof {
		k, err := s.r.Read(s.buf[s.end:])
		s.end += k
		if err != nil {
			s.eof = true
		}
	}
	return true
}

// ws returns the index of the first byte at or after i that is not white
// space (len(b) when there is none).
func ws(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// next returns the index of the first byte at or after i that is not
// white space, and that byte; errShort when the window ends first.
func next(b []byte, i int) (int, byte, error) {
	if i < len(b) && b[i] > ' ' { // most often
		return i, b[i], nil
	}
	if i = ws(b, i); i == len(b) {
		return i, 0, errShort
	}
	return i, b[i], nil
}

// expect reads byte c after white space.
func expect(b []byte, i int, c byte) (int, error) {
	i, d, err := next(b, i)
	if err != nil {
		return i, err
	}
	if d != c {
		return i, errDecline
	}
	return i + 1, nil
}

// readString reads a string (its opening quote next after white space)
// into s.str, its escapes undone; s.str is valid until the window moves.
// \u escapes, control bytes and, unless any is set, bytes outside ASCII
// are declined.
func (s *streamReader) readString(b []byte, i int, any bool) (int, error) {
	i, err := expect(b, i, '"')
	if err != nil {
		return i, err
	}
	stop := &stopASCII
	if any {
		stop = &stopAny
	}
	start := i
	for i < len(b) && !stop[b[i]] {
		i++
	}
	if i == len(b) {
		return i, errShort
	}
	if b[i] == '"' { // most often: no escape
		s.str = b[start:i:i]
		return i + 1, nil
	}
	s.scratch = append(s.scratch[:0], b[start:i]...)
	for {
		if i == len(b) {
			return i, errShort
		}
		switch c := b[i]; {
		case c == '"':
			s.str = s.scratch
			return i + 1, nil
		case c == '\\':
			if i+1 == len(b) {
				return i, errShort
			}
			var e byte
			switch b[i+1] {
			case '"', '\\', '/':
				e = b[i+1]
			case 'b':
				e = '\b'
			case 'f':
				e = '\f'
			case 'n':
				e = '\n'
			case 'r':
				e = '\r'
			case 't':
				e = '\t'
			default:
				return i, errDecline
			}
			s.scratch = append(s.scratch, e)
			i += 2
		case stop[c]:
			return i, errDecline
		default:
			s.scratch = append(s.scratch, c)
			i++
		}
	}
}

// stopASCII and stopAny are the bytes that end a run of plain bytes in a
// string: the quote, the backslash, control bytes, and for stopASCII bytes
// outside ASCII.
var stopASCII, stopAny = stopTable(false), stopTable(true)

func stopTable(any bool) (t [256]bool) {
	for c := range t {
		t[c] = c == '"' || c == '\\' || c < 0x20 || c >= 0x80 && !any
	}
	return t
}

// number reads a JSON number that is a non-negative integer in its plain
// form (0 or no leading zero), or a string holding a number in Go syntax,
// as number() reads them, at most limit.
func (s *streamReader) number(b []byte, i int, limit uint64) (uint64, int, error) {
	i, c, err := next(b, i)
	if err != nil {
		return 0, i, err
	}
	if c == '"' {
		// most often "0x" and hex digits, read in place
		if k := i + 3; k < len(b) && b[i+1] == '0' && (b[i+2] == 'x' || b[i+2] == 'X') {
			var v uint64
			for ; k < len(b) && k-i-3 < 16 && hexVal[b[k]] <= 15; k++ {
				v = v<<4 | uint64(hexVal[b[k]])
			}
			if k < len(b) && b[k] == '"' && k > i+3 {
				if v > limit {
					return 0, k, errDecline
				}
				return v, k + 1, nil
			}
		}
		if i, err = s.readString(b, i, false); err != nil {
			return 0, i, err
		}
		v, ok := goUint(s.str)
		if !ok {
			var err error
			v, err = strconv.ParseUint(strings.TrimSpace(string(s.str)), 0, 64)
			if err != nil {
				return 0, i, errDecline
			}
		}
		if v > limit {
			return 0, i, errDecline
		}
		return v, i, nil
	}
	start := i
	var v uint64
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		if i-start > 18 {
			return 0, i, errDecline
		}
		v = v*10 + uint64(b[i]-'0')
	}
	if i == len(b) {
		return 0, i, errShort // the number may go on
	}
	switch {
	case i == start, b[start] == '0' && i-start > 1, v > limit:
		return 0, i, errDecline
	}
	switch b[i] {
	case ' ', '\t', '\r', '\n', ',', '}', ']':
	default:
		return 0, i, errDecline
	}
	return v, i, nil
}

// goUint reads the common forms of a number in Go syntax, as
// strconv.ParseUint(b, 0, 64) reads them: "0", decimal digits with no
// leading zero, "0x" or "0X" and hex digits, at most 16 digits in all. It
// returns false for anything else (which ParseUint may still read).
func goUint(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var v uint64
	if len(b) > 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X') {
		for _, c := range b[2:] {
			d := hexVal[c]
			if d > 15 {
				return 0, false
			}
			v = v<<4 | uint64(d)
		}
		return v, true
	}
	if b[0] == '0' && len(b) > 1 || len(b) > 16 {
		return 0, false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	return v, true
}

// hexVal is the value of each hex digit; 0xFF for other bytes.
var hexVal = func() (t [256]uint8) {
	for c := range t {
		switch {
		case '0' <= c && c <= '9':
			t[c] = uint8(c - '0')
		case 'a' <= c && c <= 'f':
			t[c] = uint8(c - 'a' + 10)
		case 'A' <= c && c <= 'F':
			t[c] = uint8(c - 'A' + 10)
		default:
			t[c] = 0xFF
		}
	}
	return t
}()

// literal reads true or false.
func literal(b []byte, i int) (bool, int, error) {
	i, c, err := next(b, i)
	if err != nil {
		return false, i, err
	}
	word := "false"
	if c == 't' {
		word = "true"
	}
	for k := 0; k < len(word); k++ {
		if i == len(b) {
			return false, i, errShort
		}
		if b[i] != word[k] {
			return false, i, errDecline
		}
		i++
	}
	return word == "true", i, nil
}

// rawValue appends one JSON value, as written, to dst: strings, with their
// escapes, and nested objects and arrays are copied whole; ParseState
// checks what is copied. The value ends at a comma, or a closing bracket
// or brace, outside it.
func rawValue(dst, b []byte, i int) ([]byte, int, error) {
	depth := 0
	inString, escaped := false, false
	i = ws(b, i)
	for ; i < len(b); i++ {
		c := b[i]
		if inString {
			dst = append(dst, c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
				if depth == 0 {
					return dst, i + 1, nil
				}
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return dst, i, nil
			}
			depth--
		case ',':
			if depth == 0 {
				return dst, i, nil
			}
		}
		dst = append(dst, c)
		if depth == 0 && (c == '}' || c == ']') {
			return dst, i + 1, nil
		}
	}
	return dst, i, errShort
}

// header reads the members before "hits" and returns the State they give
// (checked by ParseState, with no hits), positioned at the first hit.
func (s *streamReader) header() (*State, error) {
	if err := s.step(func(b []byte, i int) (int, error) { return expect(b, i, '{') }); err != nil {
		return nil, err
	}
	obj := []byte{'{'}
	for {
		// one member: its name and value, or "hits" and its bracket
		var name string
		mark := len(obj)
		err := s.step(func(b []byte, i int) (int, error) {
			obj = obj[:mark]
			i, c, err := next(b, i)
			if err != nil {
				return i, err
			}
			if c == '}' {
				return i, errDecline // no "hits"
			}
			if i, err = s.readString(b, i, false); err != nil {
				return i, err
			}
			name = string(s.str)
			if i, err = expect(b, i, ':'); err != nil {
				return i, err
			}
			if name == "hits" {
				return expect(b, i, '[')
			}
			if len(obj) > 1 {
				obj = append(obj, ',')
			}
			obj = strconv.AppendQuote(obj, name)
			obj = append(obj, ':')
			if obj, i, err = rawValue(obj, b, i); err != nil {
				return i, err
			}
			return expect(b, i, ',') // "hits" must follow
		})
		if err != nil {
			return nil, err
		}
		if name != "hits" {
			continue
		}
		if len(obj) > 1 {
			obj = append(obj, ',')
		}
		obj = append(obj, `"hits": []}`...)
		st, err := parseStateJSON(obj)
		if err != nil {
			return nil, errDecline
		}
		empty := false
		if err := s.step(func(b []byte, i int) (int, error) {
			i, c, err := next(b, i)
			if err == nil && c == ']' {
				empty = true
				i++
			}
			return i, err
		}); err != nil {
			return nil, err
		}
		if empty {
			s.done = true
			if err := s.finish(); err != nil {
				return nil, err
			}
		}
		return st, nil
	}
}

// finish reads what follows the hits: the object's end and nothing else.
func (s *streamReader) finish() error {
	if err := s.step(func(b []byte, i int) (int, error) { return expect(b, i, '}') }); err != nil {
		return err
	}
	for {
		if s.pos = ws(s.buf[:s.end], s.pos); s.pos < s.end {
			return errDecline
		}
		if !s.refill() {
			return nil
		}
	}
}

// hit reads the next hit as rawHit.hit reads it; nil at the end of the
// hits.
func (s *streamReader) hit() (*Hit, error) {
	if s.done {
		return nil, nil
	}
	h := s.dst
	if h == nil {
		h = &s.hit0
	}
	end := false
	if err := s.step(func(b []byte, i int) (int, error) {
		if s.n > 0 {
			var c byte
			var err error
			i, c, err = next(b, i)
			switch {
			case err != nil:
				return i, err
			case c == ']':
				end = true
				return i + 1, nil
			case c != ',':
				return i, errDecline
			}
			i++
		}
		return s.readHit(b, i, h)
	}); err != nil {
		return nil, err
	}
	if end {
		s.done = true
		return nil, s.finish()
	}
	s.n++
	return h, nil
}

// readHit reads a hit's object into h.
func (s *streamReader) readHit(b []byte, i int, h *Hit) (int, error) {
	*h = Hit{}
	i, err := expect(b, i, '{')
	if err != nil {
		return i, err
	}
	const (
		seenComment = 1 << iota
		seenMinor
		seenTP
		seenPID
		seenTime
		seenExternal
		seenRegisters
		seenMemory
	)
	seen := 0
	for first := true; ; first = false {
		var c byte
		if i, c, err = next(b, i); err != nil {
			return i, err
		}
		if c == '}' && first {
			return i, errDecline
		}
		if !first {
			if c == '}' {
				i++
				break
			}
			if c != ',' {
				return i, errDecline
			}
			i++
		}
		key := ""
		if i = ws(b, i); i+1 < len(b) && b[i] == '"' {
			// the names of the format, most often, matched in place
			for _, k := range hitKeys[b[i+1]&0x7F] {
				if e := i + 1 + len(k); e < len(b) && b[e] == '"' && string(b[i+1:e]) == k {
					key, i = k, e+1
					break
				}
			}
		}
		if key == "" {
			if i, err = s.readString(b, i, false); err != nil {
				return i, err
			}
			key = string(s.str)
		}
		if i, err = expect(b, i, ':'); err != nil {
			return i, err
		}
		var bit int
		switch key {
		case "comment":
			bit = seenComment
			i, err = s.readString(b, i, true)
		case "minor":
			bit = seenMinor
			var v uint64
			v, i, err = s.number(b, i, 0xFFFF)
			h.Minor = uint16(v)
		case "tp":
			bit = seenTP
			if i, err = s.readString(b, i, false); err == nil {
				h.Object, h.Offset, err = address(string(s.str), "")
				h.ByAddress = true
			}
		case "pid":
			bit = seenPID
			var v uint64
			v, i, err = s.number(b, i, 0xFFFF)
			h.PID = uint16(v)
		case "time":
			bit = seenTime
			// most often "hh:mm:ss.hh", read in place
			if k := ws(b, i); k+12 < len(b) && b[k] == '"' && b[k+12] == '"' {
				var field int
				if h.Time, field = parseTimestamp(b[k+1 : k+12]); field < 0 {
					i = k + 13
					break
				}
			}
			if i, err = s.readString(b, i, false); err == nil {
				var field int
				if h.Time, field = parseTimestamp(s.str); field >= 0 {
					err = errDecline
				}
			}
		case "external":
			bit = seenExternal
			h.External, i, err = literal(b, i)
		case "registers":
			bit = seenRegisters
			i, err = s.registers(b, i, h)
		case "memory":
			bit = seenMemory
			h.Memory, i, err = s.regions(b, i)
		default:
			return i, errDecline
		}
		if err != nil {
			return i, err
		}
		if seen&bit != 0 {
			return i, errDecline
		}
		seen |= bit
	}
	if seen&(seenMinor|seenTP) == seenMinor|seenTP || seen&(seenMinor|seenTP) == 0 || seen&seenPID == 0 || seen&seenTime == 0 {
		return i, errDecline
	}
	return i, nil
}

// hitKeys are the member names of a hit, by their first byte.
var hitKeys = func() (t [128][]string) {
	for _, k := range []string{"comment", "minor", "tp", "pid", "time", "external", "registers", "memory"} {
		t[k[0]] = append(t[k[0]], k)
	}
	return t
}()

// registers reads a hit's "registers" object as registers() reads it,
// into h.regSet and h.regVals (into h.Registers when s.maps is set).
func (s *streamReader) registers(b []byte, i int, h *Hit) (int, error) {
	i, err := expect(b, i, '{')
	if err != nil {
		return i, err
	}
	if s.maps {
		h.Registers = map[Reg]uint32{}
	}
	for first := true; ; first = false {
		var c byte
		if i, c, err = next(b, i); err != nil {
			return i, err
		}
		if c == '}' {
			return i + 1, nil
		}
		if !first {
			if c != ',' {
				return i, errDecline
			}
			i++
		}
		// the name, most often plain and in the window: read in place
		name := []byte(nil)
		if i = ws(b, i); i < len(b) && b[i] == '"' {
			for k := i + 1; k < len(b) && k <= i+7; k++ {
				if b[k] == '"' {
					name, i = b[i+1:k], k+1
					break
				}
				if stopASCII[b[k]] {
					break
				}
			}
		}
		if name == nil {
			if i, err = s.readString(b, i, false); err != nil {
				return i, err
			}
			name = s.str
		}
		r, ok := parseRegBytes(name)
		_, twice := h.Registers[r]
		if !ok || h.regSet&(1<<r) != 0 || twice { // the same name twice, or in two cases
			return i, errDecline
		}
		if i, err = expect(b, i, ':'); err != nil {
			return i, err
		}
		limit := uint64(0xFFFFFFFF)
		if r.Segment() {
			limit = 0xFFFF
		}
		var v uint64
		if v, i, err = s.number(b, i, limit); err != nil {
			return i, err
		}
		if s.maps {
			h.Registers[r] = uint32(v)
		} else {
			h.regSet |= 1 << r
			h.regVals[r] = uint32(v)
		}
	}
}

// regions reads a hit's "memory" array as regions() reads it.
func (s *streamReader) regions(b []byte, i int) ([]Region, int, error) {
	i, err := expect(b, i, '[')
	if err != nil {
		return nil, i, err
	}
	var out []Region
	for first := true; ; first = false {
		var c byte
		if i, c, err = next(b, i); err != nil {
			return nil, i, err
		}
		if c == ']' {
			return out, i + 1, nil
		}
		if !first {
			if c != ',' {
				return nil, i, errDecline
			}
			i++
		}
		var r Region
		if r, i, err = s.region(b, i); err != nil {
			return nil, i, err
		}
		out = append(out, r)
	}
}

// region reads one region object as rawRegion.region reads it.
func (s *streamReader) region(b []byte, i int) (Region, int, error) {
	i, err := expect(b, i, '{')
	if err != nil {
		return Region{}, i, err
	}
	var rr rawRegion
	seen := map[string]bool{}
	for first := true; ; first = false {
		var c byte
		if i, c, err = next(b, i); err != nil {
			return Region{}, i, err
		}
		if c == '}' && !first {
			i++
			break
		}
		if !first {
			if c != ',' {
				return Region{}, i, errDecline
			}
			i++
		}
		if i, err = s.readString(b, i, false); err != nil {
			return Region{}, i, err
		}
		name := string(s.str)
		if seen[name] {
			return Region{}, i, errDecline
		}
		seen[name] = true
		if i, err = expect(b, i, ':'); err != nil {
			return Region{}, i, err
		}
		switch name {
		case "comment":
			i, err = s.readString(b, i, true)
		case "address":
			var v uint64
			v, i, err = s.number(b, i, 0xFFFFFFFF)
			rr.Address = strconv.AppendUint(nil, v, 10)
		case "hex", "string", "asciiz":
			if i, err = s.readString(b, i, true); err == nil {
				str := string(s.str)
				switch name {
				case "hex":
					rr.Hex = &str
				case "string":
					rr.String = &str
				default:
					rr.ASCIIZ = &str
				}
			}
		default:
			return Region{}, i, errDecline
		}
		if err != nil {
			return Region{}, i, err
		}
	}
	r, err := rr.region("")
	if err != nil {
		return Region{}, i, errDecline
	}
	return r, i, nil
}

// parseRegBytes is ParseReg on an ASCII name held in bytes (readString
// declines others; ParseReg's Unicode folding would take "EſP" for ESP).
func parseRegBytes(name []byte) (Reg, bool) {
	if len(name) == 0 || len(name) > 6 {
		return 0, false
	}
	k := regKey(name)
	for i, rk := range regKeys {
		if rk == k {
			return Reg(i), true
		}
	}
	return 0, false
}

// regKey packs a name of at most 6 bytes, upper-cased, into a number (its
// length in the top byte): two names give the same key only when they are
// the same but for the case of letters.
func regKey[T string | []byte](name T) uint64 {
	k := uint64(len(name)) << 56
	for i := 0; i < len(name); i++ {
		c := name[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		k |= uint64(c) << (8 * i)
	}
	return k
}

// regKeys are the keys of regNames.
var regKeys = func() (t [NumRegs]uint64) {
	for i, n := range regNames {
		t[i] = regKey(n)
	}
	return t
}()
