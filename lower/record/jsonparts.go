package record

// AppendArgsJSON appends args as the JSON array a record's "args" member
// holds, for writers of other formats that keep args as JSON text.
func AppendArgsJSON(b []byte, args []Arg) []byte { return appendArgs(b, args) }

// AppendAttrsJSON appends attrs as the JSON object a record's "attrs"
// member holds (keys sorted).
func AppendAttrsJSON(b []byte, a Attrs) ([]byte, error) { return appendAttrs(b, a) }
