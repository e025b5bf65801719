// Package record is tracekit's normalized trace record: what every dialect
// lowering produces and every writer prints. docs/records.md describes the
// fields and docs/record.schema.json is their JSON Schema; the JSON form a
// Record marshals to is the one the schema describes.
//
// Writers (NewJSONL, NewCSV, NewText, or NewWriter by name) print one record
// at a time, so a whole trace never has to be held.
package record

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// Phase says which part of an event a record stands for.
type Phase string

// The phases.
const (
	Enter    Phase = "enter"    // the start of a call whose end is a separate record, or was never seen
	Exit     Phase = "exit"     // the end of a call whose start is a separate record, or was never seen
	Complete Phase = "complete" // a whole call: start and end in one record
	Instant  Phase = "instant"  // an event without duration (a hook, a table entry, a PRF event)
)

// Status is the outcome of the traced event, where the dialect records one.
type Status string

// The statuses.
const (
	StatusOK    Status = "ok"    // PRF "Rec": the record status is normal
	StatusError Status = "error" // PRF "ErrRec": the record status is abnormal
)

// Attrs holds what belongs to one dialect only. Values are strings, bools,
// integers, or slices and maps of these; keys are printed sorted.
type Attrs map[string]any

// Record is one normalized trace record. Optional fields are nil or empty
// when the dialect does not give them.
type Record struct {
	Dialect  string // the dialect's registry name
	Source   string // the input's name as given ("-" for standard input)
	Line     int    // 1-based source line the record starts on
	Seq      int64  // 1-based position of the record in its input's output
	Time     string // the time stamp as written
	TSNs     *int64 // nanoseconds from the start of the trace
	CPU      *uint64
	PID      *uint64
	TID      *uint64
	Process  string // process name
	Event    string // what a person would search for: syscall name, "0xMM/0xmm", PRF event id
	Major    *uint64
	Minor    *uint64
	Phase    Phase
	Unpaired bool   // an enter or exit record whose other half was never seen
	DurNs    *int64 // the call's duration in nanoseconds, where the trace measured it (strace -T)
	Errno    string // the error's symbol (ENOENT, STATUS_ACCESS_DENIED) when the call failed with one
	Args     []Arg  // arguments, in order; top-level ones may be named
	Ret      *Arg   // the return value
	Status   Status // the outcome, where the dialect gives one
	Data     []string
	Attrs    Attrs
	// AttrsJSON, when not nil, is Attrs as JSON, in the form the writers
	// print (AppendAttrsJSON): a lowering whose records share a few Attrs
	// maps encodes each once, and the writers copy it instead of encoding
	// the map for every record. It is not a field of the output. Whoever
	// changes Attrs must set it to nil; its bytes never change.
	AttrsJSON []byte
}

// Uint returns a pointer to v, for the optional integer fields.
func Uint(v uint64) *uint64 { return &v }

// Int returns a pointer to v, for TSNs and DurNs.
func Int(v int64) *int64 { return &v }

// MarshalJSON writes the record in the form docs/record.schema.json
// describes: the fields in a fixed order, optional ones left out when empty.
func (r *Record) MarshalJSON() ([]byte, error) {
	return r.AppendJSON(nil)
}

// AppendJSON appends the JSON form of r to b.
func (r *Record) AppendJSON(b []byte) ([]byte, error) { return r.appendJSON(b, nil, nil) }

// jsonHead is the start of the JSON of the records of one dialect and
// source, up to the value of "line", kept by a writer: those rarely change.
type jsonHead struct {
	dialect, source string
	b               []byte
}

// appendJSONHead appends the start of r's JSON, up to the value of "line".
func appendJSONHead(b []byte, r *Record) []byte {
	b = append(b, `{"dialect":`...)
	b = appendString(b, r.Dialect)
	b = appendMember(b, `,"source":`, r.Source)
	return append(b, `,"line":`...)
}

// appendJSON is AppendJSON, with holes where the seq and ts_ns members go
// when h is not nil (AppendTemplate). head, when not nil, keeps the
// start of the JSON for the next records.
func (r *Record) appendJSON(b []byte, h *Holes, head *jsonHead) ([]byte, error) {
	start := len(b)
	if head == nil {
		b = appendJSONHead(b, r)
	} else {
		if head.b == nil || r.Dialect != head.dialect || r.Source != head.source {
			head.dialect, head.source = r.Dialect, r.Source
			head.b = appendJSONHead(head.b[:0], r)
		}
		b = append(b, head.b...)
	}
	b = appendInt(b, int64(r.Line))
	b = append(b, `,"seq":`...)
	if h != nil {
		h.Seq = int32(len(b) - start)
	} else {
		b = appendInt(b, r.Seq)
	}
	b = appendOptString(b, `,"time":`, r.Time)
	if h != nil {
		h.TS = int32(len(b) - start)
	} else {
		b = appendOptInt(b, `,"ts_ns":`, r.TSNs)
	}
	b = appendPlace(b, r)
	b = appendMember(b, `,"event":`, r.Event)
	b = appendOptUint(b, `,"major":`, r.Major)
	b = appendOptUint(b, `,"minor":`, r.Minor)
	b = appendPhase(b, r.Phase)
	if r.Unpaired {
		b = append(b, `,"unpaired":true`...)
	}
	b = appendOptInt(b, `,"dur_ns":`, r.DurNs)
	b = appendOptString(b, `,"errno":`, r.Errno)
	b = appendCall(b, r)
	return appendStatusDataAttrs(b, r)
}

// appendPhase appends the "phase" member: the member of each phase the
// model names as a constant, any other encoded.
func appendPhase(b []byte, p Phase) []byte {
	switch p {
	case Instant:
		return append(b, `,"phase":"instant"`...)
	case Enter:
		return append(b, `,"phase":"enter"`...)
	case Exit:
		return append(b, `,"phase":"exit"`...)
	case Complete:
		return append(b, `,"phase":"complete"`...)
	}
	return appendMember(b, `,"phase":`, string(p))
}

// appendStatusDataAttrs appends the members every JSON form of a record
// ends with: status, data and attrs, then the closing brace (the record
// object of JSONL, the args object of the Chrome trace).
func appendStatusDataAttrs(b []byte, r *Record) ([]byte, error) {
	if r.Status != "" {
		b = append(b, `,"status":`...)
		b = appendString(b, string(r.Status))
	}
	if len(r.Data) > 0 {
		b = append(b, `,"data":[`...)
		for i, d := range r.Data {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, d)
		}
		b = append(b, ']')
	}
	if len(r.Attrs) > 0 {
		b = append(b, `,"attrs":`...)
		var err error
		if b, err = appendRecordAttrs(b, r); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

func appendOptUint(b []byte, key string, v *uint64) []byte {
	if v == nil {
		return b
	}
	b = append(b, key...)
	return appendUint(b, *v)
}

// appendCall appends the "args" and "ret" members that are set.
func appendCall(b []byte, r *Record) []byte {
	if len(r.Args) > 0 {
		b = append(b, `,"args":`...)
		b = appendArgs(b, r.Args)
	}
	if r.Ret != nil {
		b = append(b, `,"ret":`...)
		b = r.Ret.appendJSON(b)
	}
	return b
}

// appendPlace appends where the record happened: the "cpu", "pid", "tid"
// and "process" members that are set.
func appendPlace(b []byte, r *Record) []byte {
	b = appendOptUint(b, `,"cpu":`, r.CPU)
	b = appendOptUint(b, `,"pid":`, r.PID)
	b = appendOptUint(b, `,"tid":`, r.TID)
	return appendOptString(b, `,"process":`, r.Process)
}

// appendOptInt appends key and *v when v is set.
func appendOptInt(b []byte, key string, v *int64) []byte {
	if v == nil {
		return b
	}
	b = append(b, key...)
	return appendInt(b, *v)
}

// appendOptString appends key and s as a JSON string when s is not empty.
func appendOptString(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	b = append(b, key...)
	return appendString(b, s)
}

// appendAttrs writes attrs as encoding/json does (sorted keys, no HTML
// escaping): strings, bools, integers and slices and maps of these are
// appended directly, anything else through encoding/json.
func appendAttrs(b []byte, a Attrs) ([]byte, error) {
	return appendJSONMap(b, a, false)
}

// appendRecordAttrs appends the JSON of a record's non-empty attrs: the
// encoding the record carries, or the map encoded.
func appendRecordAttrs(b []byte, r *Record) ([]byte, error) {
	if r.AttrsJSON != nil {
		return append(b, r.AttrsJSON...), nil
	}
	return appendJSONMap(b, r.Attrs, false)
}

// maxInlineKeys is how many keys appendJSONMap sorts on the stack.
const maxInlineKeys = 16

// appendJSONMap appends m as a JSON object (appendAttrs); double doubles
// its quotes, for a quoted CSV cell.
func appendJSONMap(b []byte, m map[string]any, double bool) ([]byte, error) {
	type pair struct {
		k string
		v any
	}
	var inline [maxInlineKeys]pair
	pairs := inline[:0]
	if len(m) > maxInlineKeys {
		pairs = make([]pair, 0, len(m))
	}
	for k, v := range m {
		pairs = append(pairs, pair{k, v})
	}
	// Insertion sort: attrs hold a handful of keys.
	for i := 1; i < len(pairs); i++ {
		for j := i; j > 0 && pairs[j].k < pairs[j-1].k; j-- {
			pairs[j], pairs[j-1] = pairs[j-1], pairs[j]
		}
	}
	b = append(b, '{')
	for i := range pairs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendStringQ(b, pairs[i].k, double)
		b = append(b, ':')
		var err error
		if b, err = appendJSONValue(b, pairs[i].v, double); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendJSONValue appends an attr's value as JSON; double doubles its
// quotes.
func appendJSONValue(b []byte, v any, double bool) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendStringQ(b, v, double), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case int:
		return appendInt(b, int64(v)), nil
	case int64:
		return appendInt(b, v), nil
	case int32:
		return appendInt(b, int64(v)), nil
	case uint:
		return appendUint(b, uint64(v)), nil
	case uint64:
		return appendUint(b, v), nil
	case uint32:
		return appendUint(b, uint64(v)), nil
	case uint16:
		return appendUint(b, uint64(v)), nil
	case uint8:
		return appendUint(b, uint64(v)), nil
	case map[string]any:
		if v == nil {
			return append(b, "null"...), nil
		}
		return appendJSONMap(b, v, double)
	case []string:
		if v == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, s := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendStringQ(b, s, double)
		}
		return append(b, ']'), nil
	case []any:
		if v == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, x := range v {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = appendJSONValue(b, x, double); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	j := bytes.TrimRight(buf.Bytes(), "\n")
	if double {
		return appendDoubled(b, j), nil
	}
	return append(b, j...), nil
}
