package lowering

import (
	"reflect"
	"testing"

	"github.com/tracekit/tracekit/lower/record"
)

// TestClone: a clone equals its record and shares nothing that can change
// with it.
func TestClone(t *testing.T) {
	in, out := record.IntArg(false, 1, "1"), record.SymArg("X")
	r := record.Record{
		Event: "read", PID: record.Uint(7), TSNs: record.Int(9), DurNs: record.Int(3),
		Args:  []record.Arg{record.StructArg(record.BytesArg([]byte{1, 2}), record.Arg{Kind: record.KindInOut, In: &in, Out: &out})},
		Ret:   &record.Arg{Kind: record.KindInt, Mag: 4},
		Data:  []string{"a"},
		Attrs: record.Attrs{"stack": []string{"f"}, "resumed_lines": []int{2}, "id": uint64(5)},
	}
	c := Clone(&r)
	if !reflect.DeepEqual(c, r) {
		t.Fatalf("clone %+v differs from %+v", c, r)
	}
	*c.PID, *c.TSNs, *c.DurNs, c.Ret.Mag = 0, 0, 0, 0
	c.Args[0].Fields[0].Bytes[0] = 9
	c.Args[0].Fields[1].In.Mag = 9
	c.Data[0] = "b"
	c.Attrs["stack"].([]string)[0] = "g"
	c.Attrs["resumed_lines"].([]int)[0] = 3
	c.Attrs["id"] = uint64(6)
	if *r.PID != 7 || *r.TSNs != 9 || *r.DurNs != 3 || r.Ret.Mag != 4 || r.Args[0].Fields[0].Bytes[0] != 1 || in.Mag != 1 ||
		r.Data[0] != "a" || r.Attrs["stack"].([]string)[0] != "f" || r.Attrs["resumed_lines"].([]int)[0] != 2 || r.Attrs["id"] != uint64(5) {
		t.Errorf("changing the clone changed the record: %+v", r)
	}
}
