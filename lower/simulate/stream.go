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
// set. Whatever the streaming reader does not take on (a "memory" member
// in a hit, a string with an escape, members after "hits", anything that
// is not as ParseState would accept it) and any error make RunFile read
// the file again with OpenState and Run, which gives ParseState's
// diagnostic in its order; opt.Hit then sees the hits again from hit 0.
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
type streamReader struct {
	r        io.Reader
	buf      []byte
	pos, end int
	eof      bool
	str      []byte // the last string read
	scratch  []byte // where str is built when it is not the buffer's
	inBuf    bool   // str is the buffer's bytes
	n        int    // hits read
	done     bool
	hit0     Hit  // where hit reads a hit, unless dst is set
	dst      *Hit // where hit reads the next hit
}

// more makes sure a byte is buffered; false at the end of the input.
func (s *streamReader) more() bool {
	for s.pos >= s.end {
		if s.eof {
			return false
		}
		if s.inBuf {
			// the buffer is read over: s.str moves out first
			s.scratch = append(s.scratch[:0], s.str...)
			s.str, s.inBuf = s.scratch, false
		}
		n, err := s.r.Read(s.buf)
		s.pos, s.end = 0, n
		if err != nil {
			s.eof = true
		}
	}
	return true
}

// space skips white space and returns the next byte (not consumed); 0 at
// the end of the input.
func (s *streamReader) space() byte {
	if s.pos+1 < s.end {
		// most often no blank or one
		if c := s.buf[s.pos]; c > ' ' {
			return c
		} else if c == ' ' && s.buf[s.pos+1] > ' ' {
			s.pos++
			return s.buf[s.pos]
		}
	}
	return s.skipSpace()
}

// skipSpace is space past the first byte.
func (s *streamReader) skipSpace() byte {
	for {
		for s.pos < s.end {
			switch c := s.buf[s.pos]; c {
			case ' ', '\t', '\r', '\n':
				s.pos++
			default:
				return c
			}
		}
		if !s.more() {
			return 0
		}
	}
}

// expect consumes byte c after white space.
func (s *streamReader) expect(c byte) error {
	if s.space() != c {
		return errDecline
	}
	s.pos++
	return nil
}

// readString reads a string (its opening quote next after white space)
// into s.str, its escapes undone; s.str is valid until the next read. \u
// escapes, control bytes and, unless any is set, bytes outside ASCII are
// declined.
func (s *streamReader) readString(any bool) error {
	if err := s.expect('"'); err != nil {
		return err
	}
	stop := &stopASCII
	if any {
		stop = &stopAny
	}
	// Most strings end in the buffer with no escape: s.str is then the
	// buffer's bytes.
	chunk := s.buf[s.pos:s.end]
	i := 0
	for i < len(chunk) && !stop[chunk[i]] {
		i++
	}
	if i < len(chunk) && chunk[i] == '"' {
		s.str, s.inBuf = chunk[:i:i], true
		s.pos += i + 1
		return nil
	}
	s.scratch, s.inBuf = s.scratch[:0], false
	for s.more() {
		chunk := s.buf[s.pos:s.end]
		i := 0
		for i < len(chunk) && !stop[chunk[i]] {
			i++
		}
		s.scratch = append(s.scratch, chunk[:i]...)
		s.pos += i
		if i == len(chunk) {
			continue
		}
		switch chunk[i] {
		case '"':
			s.pos++
			s.str = s.scratch
			return nil
		case '\\':
			s.pos++
			if !s.more() {
				return errDecline
			}
			e := s.buf[s.pos]
			s.pos++
			switch e {
			case '"', '\\', '/':
				s.scratch = append(s.scratch, e)
			case 'b':
				s.scratch = append(s.scratch, '\b')
			case 'f':
				s.scratch = append(s.scratch, '\f')
			case 'n':
				s.scratch = append(s.scratch, '\n')
			case 'r':
				s.scratch = append(s.scratch, '\r')
			case 't':
				s.scratch = append(s.scratch, '\t')
			default:
				return errDecline
			}
		default:
			return errDecline
		}
	}
	return errDecline
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
func (s *streamReader) number(limit uint64) (uint64, error) {
	c := s.space()
	if c == '"' {
		if err := s.readString(false); err != nil {
			return 0, err
		}
		v, ok := goUint(s.str)
		if !ok {
			var err error
			v, err = strconv.ParseUint(strings.TrimSpace(string(s.str)), 0, 64)
			if err != nil {
				return 0, errDecline
			}
		}
		if v > limit {
			return 0, errDecline
		}
		return v, nil
	}
	var v uint64
	digits := 0
	first := byte(0)
	for s.more() {
		c := s.buf[s.pos]
		if c < '0' || c > '9' {
			break
		}
		if digits == 0 {
			first = c
		}
		if digits > 18 {
			return 0, errDecline
		}
		v = v*10 + uint64(c-'0')
		digits++
		s.pos++
	}
	if digits == 0 || first == '0' && digits > 1 || v > limit {
		return 0, errDecline
	}
	if s.more() {
		switch s.buf[s.pos] {
		case ' ', '\t', '\r', '\n', ',', '}', ']':
		default:
			return 0, errDecline
		}
	}
	return v, nil
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
func (s *streamReader) literal() (bool, error) {
	c := s.space()
	word := "false"
	if c == 't' {
		word = "true"
	}
	for i := 0; i < len(word); i++ {
		if !s.more() || s.buf[s.pos] != word[i] {
			return false, errDecline
		}
		s.pos++
	}
	return word == "true", nil
}

// rawValue appends one JSON value, as written, to dst: strings, with their
// escapes, and nested objects and arrays are copied whole; ParseState
// checks what is copied.
func (s *streamReader) rawValue(dst []byte) ([]byte, error) {
	depth := 0
	inString, escaped := false, false
	s.space()
	for s.more() {
		c := s.buf[s.pos]
		if inString {
			dst = append(dst, c)
			s.pos++
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
				if depth == 0 {
					return dst, nil
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
				return dst, nil
			}
			depth--
		case ',':
			if depth == 0 {
				return dst, nil
			}
		}
		dst = append(dst, c)
		s.pos++
		if depth == 0 && (c == '}' || c == ']') {
			return dst, nil
		}
	}
	if depth == 0 && !inString && len(dst) > 0 {
		return dst, nil
	}
	return dst, errDecline
}

// header reads the members before "hits" and returns the State they give
// (checked by ParseState, with no hits), positioned at the first hit.
func (s *streamReader) header() (*State, error) {
	if err := s.expect('{'); err != nil {
		return nil, err
	}
	obj := []byte{'{'}
	for {
		if s.space() == '}' {
			return nil, errDecline // no "hits"
		}
		if err := s.readString(false); err != nil {
			return nil, err
		}
		name := string(s.str)
		if err := s.expect(':'); err != nil {
			return nil, err
		}
		if name == "hits" {
			if err := s.expect('['); err != nil {
				return nil, err
			}
			if len(obj) > 1 {
				obj = append(obj, ',')
			}
			obj = append(obj, `"hits": []}`...)
			st, err := ParseState(obj)
			if err != nil {
				return nil, errDecline
			}
			if s.space() == ']' {
				s.pos++
				s.done = true
				if err := s.finish(); err != nil {
					return nil, err
				}
			}
			return st, nil
		}
		if len(obj) > 1 {
			obj = append(obj, ',')
		}
		obj = strconv.AppendQuote(obj, name)
		obj = append(obj, ':')
		var err error
		if obj, err = s.rawValue(obj); err != nil {
			return nil, err
		}
		if err := s.expect(','); err != nil {
			return nil, err // "hits" must follow
		}
	}
}

// finish reads what follows the hits: the object's end and nothing else.
func (s *streamReader) finish() error {
	if err := s.expect('}'); err != nil {
		return err
	}
	if s.space() != 0 || !s.eof && s.more() {
		return errDecline
	}
	return nil
}

// hit reads the next hit as rawHit.hit reads it; nil at the end of the
// hits.
func (s *streamReader) hit() (*Hit, error) {
	if s.done {
		return nil, nil
	}
	if s.n > 0 {
		switch s.space() {
		case ']':
			s.pos++
			s.done = true
			return nil, s.finish()
		case ',':
			s.pos++
		default:
			return nil, errDecline
		}
	}
	s.n++
	h := s.dst
	if h == nil {
		h = &s.hit0
	}
	*h = Hit{}
	if err := s.expect('{'); err != nil {
		return nil, err
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
		c := s.space()
		if c == '}' && first {
			return nil, errDecline
		}
		if !first {
			if c == '}' {
				s.pos++
				break
			}
			if c != ',' {
				return nil, errDecline
			}
			s.pos++
		}
		if err := s.readString(false); err != nil {
			return nil, err
		}
		if err := s.expect(':'); err != nil {
			return nil, err
		}
		var bit int
		var err error
		switch string(s.str) {
		case "comment":
			bit = seenComment
			err = s.readString(true)
		case "minor":
			bit = seenMinor
			var v uint64
			v, err = s.number(0xFFFF)
			h.Minor = uint16(v)
		case "tp":
			bit = seenTP
			if err = s.readString(false); err == nil {
				h.Object, h.Offset, err = address(string(s.str), "")
				h.ByAddress = true
			}
		case "pid":
			bit = seenPID
			var v uint64
			v, err = s.number(0xFFFF)
			h.PID = uint16(v)
		case "time":
			bit = seenTime
			if err = s.readString(false); err == nil {
				var field int
				if h.Time, field = parseTimestamp(s.str); field >= 0 {
					err = errDecline
				}
			}
		case "external":
			bit = seenExternal
			h.External, err = s.literal()
		case "registers":
			bit = seenRegisters
			err = s.registers(h)
		case "memory":
			bit = seenMemory
			h.Memory, err = s.regions()
		default:
			return nil, errDecline
		}
		if err != nil || seen&bit != 0 {
			return nil, errDecline
		}
		seen |= bit
	}
	if seen&(seenMinor|seenTP) == seenMinor|seenTP || seen&(seenMinor|seenTP) == 0 || seen&seenPID == 0 || seen&seenTime == 0 {
		return nil, errDecline
	}
	return h, nil
}

// registers reads a hit's "registers" object as registers() reads it,
// into h.regSet and h.regVals.
func (s *streamReader) registers(h *Hit) error {
	if err := s.expect('{'); err != nil {
		return err
	}
	for first := true; ; first = false {
		c := s.space()
		if c == '}' {
			s.pos++
			return nil
		}
		if !first {
			if c != ',' {
				return errDecline
			}
			s.pos++
		}
		if err := s.readString(false); err != nil {
			return err
		}
		r, ok := parseRegBytes(s.str)
		if !ok || h.regSet&(1<<r) != 0 { // the same name twice, or in two cases
			return errDecline
		}
		if err := s.expect(':'); err != nil {
			return err
		}
		limit := uint64(0xFFFFFFFF)
		if r.Segment() {
			limit = 0xFFFF
		}
		v, err := s.number(limit)
		if err != nil {
			return err
		}
		h.regSet |= 1 << r
		h.regVals[r] = uint32(v)
	}
}

// regions reads a hit's "memory" array as regions() reads it.
func (s *streamReader) regions() ([]Region, error) {
	if err := s.expect('['); err != nil {
		return nil, err
	}
	var out []Region
	for first := true; ; first = false {
		c := s.space()
		if c == ']' {
			s.pos++
			return out, nil
		}
		if !first {
			if c != ',' {
				return nil, errDecline
			}
			s.pos++
		}
		r, err := s.region()
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
}

// region reads one region object as rawRegion.region reads it.
func (s *streamReader) region() (Region, error) {
	if err := s.expect('{'); err != nil {
		return Region{}, err
	}
	var rr rawRegion
	seen := map[string]bool{}
	for first := true; ; first = false {
		c := s.space()
		if c == '}' && !first {
			s.pos++
			break
		}
		if !first {
			if c != ',' {
				return Region{}, errDecline
			}
			s.pos++
		}
		if err := s.readString(false); err != nil {
			return Region{}, err
		}
		name := string(s.str)
		if seen[name] {
			return Region{}, errDecline
		}
		seen[name] = true
		if err := s.expect(':'); err != nil {
			return Region{}, err
		}
		var err error
		switch name {
		case "comment":
			err = s.readString(true)
		case "address":
			var v uint64
			v, err = s.number(0xFFFFFFFF)
			rr.Address = strconv.AppendUint(nil, v, 10)
		case "hex", "string", "asciiz":
			if err = s.readString(true); err == nil {
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
			return Region{}, errDecline
		}
		if err != nil {
			return Region{}, err
		}
	}
	r, err := rr.region("")
	if err != nil {
		return Region{}, errDecline
	}
	return r, nil
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
