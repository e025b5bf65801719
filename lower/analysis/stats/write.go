package stats

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Formats are the outputs Print knows.
var Formats = []string{"table", "json", "csv"}

// Print prints rows in format: "table" (aligned columns like strace -c,
// durations in seconds, a total line), "json" (one object a row: the --by
// keys, calls, errors, errnos, total_ns, mean_ns, max_ns, p50_ns, p99_ns,
// share; the durations null where no call was timed) or "csv" (a header,
// then those columns, errnos as NAME:N;NAME:N).
func (t *Table) Print(w io.Writer, format string, rows []*Row) error {
	var all int64
	for _, r := range rows {
		all += r.TotalNs
	}
	share := func(r *Row) float64 {
		if all == 0 {
			return 0
		}
		return float64(r.TotalNs) / float64(all)
	}
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		for _, r := range rows {
			obj := map[string]any{}
			for i, k := range t.By {
				obj[k] = r.Key[i]
			}
			obj["calls"], obj["errors"], obj["errnos"] = r.Calls, r.Errors, r.Errnos
			obj["total_ns"], obj["mean_ns"], obj["max_ns"], obj["p50_ns"], obj["p99_ns"] = nil, nil, nil, nil, nil
			obj["share"] = share(r)
			if r.Timed > 0 {
				obj["total_ns"], obj["mean_ns"], obj["max_ns"] = r.TotalNs, r.MeanNs(), r.MaxNs
				obj["p50_ns"], obj["p99_ns"] = r.Quantile(0.5), r.Quantile(0.99)
			}
			if err := enc.Encode(obj); err != nil {
				return err
			}
		}
		return nil
	case "csv":
		cw := csv.NewWriter(w)
		head := append(slices.Clone(t.By), "calls", "errors", "errnos", "total_ns", "mean_ns", "max_ns", "p50_ns", "p99_ns", "share")
		cw.Write(head)
		for _, r := range rows {
			rec := append(slices.Clone(r.Key), strconv.FormatInt(r.Calls, 10), strconv.FormatInt(r.Errors, 10), errnos(r, ";"))
			if r.Timed > 0 {
				for _, v := range []int64{r.TotalNs, r.MeanNs(), r.MaxNs, r.Quantile(0.5), r.Quantile(0.99)} {
					rec = append(rec, strconv.FormatInt(v, 10))
				}
			} else {
				rec = append(rec, "", "", "", "", "")
			}
			rec = append(rec, strconv.FormatFloat(share(r), 'f', 6, 64))
			cw.Write(rec)
		}
		cw.Flush()
		return cw.Error()
	case "table":
		return t.writeTable(w, rows, share)
	}
	return fmt.Errorf("unknown format %q: want one of %s", format, strings.Join(Formats, ", "))
}

// errnos lists a row's error names with their counts, most first.
func errnos(r *Row, sep string) string {
	names := slices.Collect(maps.Keys(r.Errnos))
	slices.SortFunc(names, func(a, b string) int {
		if r.Errnos[a] != r.Errnos[b] {
			return r.Errnos[b] - r.Errnos[a]
		}
		return strings.Compare(a, b)
	})
	var parts []string
	for _, n := range names {
		parts = append(parts, n+":"+strconv.Itoa(r.Errnos[n]))
	}
	return strings.Join(parts, sep)
}

func seconds(ns int64) string { return strconv.FormatFloat(float64(ns)/1e9, 'f', 6, 64) }

func (t *Table) writeTable(w io.Writer, rows []*Row, share func(*Row) float64) error {
	head := []string{"% time", "seconds", "usecs/call", "max", "p50", "p99", "calls", "errors"}
	head = append(head, t.By...)
	head = append(head, "errnos")
	cells := [][]string{head}
	line := func(r *Row, key []string) []string {
		c := []string{"-", "-", "-", "-", "-", "-"}
		if r.Timed > 0 {
			c = []string{strconv.FormatFloat(100*share(r), 'f', 2, 64), seconds(r.TotalNs),
				strconv.FormatInt(r.MeanNs()/1000, 10), seconds(r.MaxNs), seconds(r.Quantile(0.5)), seconds(r.Quantile(0.99))}
		}
		errs := ""
		if r.Errors > 0 {
			errs = strconv.FormatInt(r.Errors, 10)
		}
		c = append(c, strconv.FormatInt(r.Calls, 10), errs)
		c = append(c, key...)
		return append(c, errnos(r, " "))
	}
	for _, r := range rows {
		cells = append(cells, line(r, r.Key))
	}
	total := Total(rows)
	tk := make([]string, len(t.By))
	tk[0] = "total"
	cells = append(cells, nil, line(total, tk))
	width := make([]int, len(head))
	for _, c := range cells {
		for i, s := range c {
			width[i] = max(width[i], len(s))
		}
	}
	numeric := 8 // the columns right-aligned: the figures
	for _, c := range cells {
		var b strings.Builder
		if c == nil {
			for i, wd := range width {
				if i > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(strings.Repeat("-", wd))
			}
		}
		for i, s := range c {
			if i > 0 {
				b.WriteByte(' ')
			}
			if i < numeric {
				fmt.Fprintf(&b, "%*s", width[i], s)
			} else if i < len(c)-1 {
				fmt.Fprintf(&b, "%-*s", width[i], s)
			} else {
				b.WriteString(s)
			}
		}
		if _, err := fmt.Fprintln(w, strings.TrimRight(b.String(), " ")); err != nil {
			return err
		}
	}
	return nil
}
