package record

// Templater is offered by the part writers (Parts.Part) of the formats
// whose records a pipeline may encode before it knows their Seq and TSNs,
// the two values that depend on the records before (a dialect's Settler
// sets TSNs, the pipeline numbers the records in input order): the worker
// that lowered a record encodes it at once, leaving holes, and the values
// are filled in once the records before are settled. The bytes come out as
// Write makes them.
type Templater interface {
	// AppendTemplate appends r encoded as Write would encode it, but for
	// its Seq and TSNs, and returns where their holes are. r is not kept.
	AppendTemplate(dst []byte, r *Record) ([]byte, Holes, error)
	// AppendFilled appends t, the bytes of one record AppendTemplate
	// appended, with seq and ts (nil: none) in its holes h.
	AppendFilled(dst, t []byte, h Holes, seq int64, ts *int64) []byte
}

// Holes is where the encoding of a record AppendTemplate made leaves its
// Seq and its TSNs: offsets from the start of the record's bytes, -1 for a
// value the format does not write.
type Holes struct {
	Seq, TS int32
	// The member or pair of ts_ns, of a column list in JSONL or text, is
	// the first of the record / has none after it: the separator goes
	// after it / nowhere.
	tsFirst, tsLast bool
}

// noHoles is the Holes of a record before its encoding placed any.
var noHoles = Holes{Seq: -1, TS: -1}

// fillHoles appends t with the seq and ts holes filled, tsHole appending
// what fills the ts hole.
func fillHoles(dst, t []byte, h Holes, seq int64, ts *int64, tsHole func([]byte, Holes, *int64) []byte) []byte {
	at := 0
	seqDone, tsDone := h.Seq < 0, h.TS < 0
	for !seqDone || !tsDone {
		if !seqDone && (tsDone || h.Seq <= h.TS) {
			dst = append(dst, t[at:h.Seq]...)
			dst = appendInt(dst, seq)
			at, seqDone = int(h.Seq), true
			continue
		}
		dst = append(dst, t[at:h.TS]...)
		dst = tsHole(dst, h, ts)
		at, tsDone = int(h.TS), true
	}
	return append(dst, t[at:]...)
}

// tsDigits fills the ts_ns hole of a CSV row: the digits, nothing when
// there is no value.
func tsDigits(dst []byte, _ Holes, ts *int64) []byte {
	if ts == nil {
		return dst
	}
	return appendInt(dst, *ts)
}

// tsListed fills the ts_ns hole of a column list in JSONL (sep ',', key
// "\"ts_ns\":") or text (sep ' ', key "ts_ns="): the member or pair, with
// the separator where the others need it.
func tsListed(dst []byte, h Holes, ts *int64, sep byte, key string) []byte {
	if ts == nil {
		return dst
	}
	if !h.tsFirst {
		dst = append(dst, sep)
	}
	dst = append(dst, key...)
	dst = appendInt(dst, *ts)
	if h.tsFirst && !h.tsLast {
		dst = append(dst, sep)
	}
	return dst
}

func tsJSONListed(dst []byte, h Holes, ts *int64) []byte {
	return tsListed(dst, h, ts, ',', `"ts_ns":`)
}

func tsTextListed(dst []byte, h Holes, ts *int64) []byte {
	return tsListed(dst, h, ts, ' ', "ts_ns=")
}

// AppendTemplate appends r's JSON line with holes for seq and ts_ns.
func (j *jsonlWriter) AppendTemplate(dst []byte, r *Record) ([]byte, Holes, error) {
	h := noHoles
	b, err := r.appendJSON(dst, &h, &j.head)
	if err != nil {
		return dst, h, err
	}
	return append(b, '\n'), h, nil
}

// AppendFilled appends a JSON line AppendTemplate made, filled: the seq
// member comes before the ts_ns member.
func (j *jsonlWriter) AppendFilled(dst, t []byte, h Holes, seq int64, ts *int64) []byte {
	dst = append(dst, t[:h.Seq]...)
	dst = appendInt(dst, seq)
	dst = append(dst, t[h.Seq:h.TS]...)
	dst = appendOptInt(dst, `,"ts_ns":`, ts)
	return append(dst, t[h.TS:]...)
}

// AppendTemplate appends r's CSV row with holes for seq and ts_ns.
func (c *csvWriter) AppendTemplate(dst []byte, r *Record) ([]byte, Holes, error) {
	h := noHoles
	b, err := c.appendRow(dst, r, &h)
	if err != nil {
		return dst, h, err
	}
	return b, h, nil
}

// AppendFilled appends a CSV row AppendTemplate made, filled: the seq
// cell comes before the ts_ns cell.
func (c *csvWriter) AppendFilled(dst, t []byte, h Holes, seq int64, ts *int64) []byte {
	dst = append(dst, t[:h.Seq]...)
	dst = appendInt(dst, seq)
	dst = append(dst, t[h.Seq:h.TS]...)
	if ts != nil {
		dst = appendInt(dst, *ts)
	}
	return append(dst, t[h.TS:]...)
}

// AppendTemplate appends r's row of the chosen fields with holes for seq
// and ts_ns.
func (f *fieldsWriter) AppendTemplate(dst []byte, r *Record) ([]byte, Holes, error) {
	h := noHoles
	var (
		b   []byte
		err error
	)
	switch f.format {
	case "csv":
		b, err = f.appendCSVRow(dst, r, &h)
	case "jsonl":
		b, err = f.appendJSONRow(dst, r, &h)
	default:
		b, err = f.appendTextRow(dst, r, &h)
	}
	if err != nil {
		return dst, h, err
	}
	return append(b, '\n'), h, nil
}

// AppendFilled appends a row AppendTemplate made, filled.
func (f *fieldsWriter) AppendFilled(dst, t []byte, h Holes, seq int64, ts *int64) []byte {
	switch f.format {
	case "csv":
		return fillHoles(dst, t, h, seq, ts, tsDigits)
	case "jsonl":
		return fillHoles(dst, t, h, seq, ts, tsJSONListed)
	}
	return fillHoles(dst, t, h, seq, ts, tsTextListed)
}

// Appender is offered by the part writers (Parts.Part) of the formats that
// encode a record into bytes of their own: a pipeline that keeps a batch's
// records (a dialect whose halves of calls are paired) encodes them
// straight into the batch's buffer, not through the part's own buffer and
// its writer.
type Appender interface {
	// AppendRecord appends r encoded as Write would write it (a part
	// writes no CSV header). r is not kept.
	AppendRecord(dst []byte, r *Record) ([]byte, error)
}

// AppendRecord appends r's JSON line.
func (j *jsonlWriter) AppendRecord(dst []byte, r *Record) ([]byte, error) {
	b, err := r.appendJSON(dst, nil, &j.head)
	if err != nil {
		return dst, err
	}
	return append(b, '\n'), nil
}

// AppendRecord appends r's CSV row.
func (c *csvWriter) AppendRecord(dst []byte, r *Record) ([]byte, error) {
	b, err := c.appendRow(dst, r, nil)
	if err != nil {
		return dst, err
	}
	return b, nil
}

// AppendRecord appends r's row of the chosen fields.
func (f *fieldsWriter) AppendRecord(dst []byte, r *Record) ([]byte, error) {
	var (
		b   []byte
		err error
	)
	switch f.format {
	case "csv":
		b, err = f.appendCSVRow(dst, r, nil)
	case "jsonl":
		b, err = f.appendJSONRow(dst, r, nil)
	default:
		b, err = f.appendTextRow(dst, r, nil)
	}
	if err != nil {
		return dst, err
	}
	return append(b, '\n'), nil
}
