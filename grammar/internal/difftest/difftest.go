// Package difftest runs two parsers of one grammar side by side, for tests:
// participle's reflective parser (the reference) and the parser
// grammar/internal/pgen generated from the same struct tags. Both must build
// identical trees (positions included) for every input, and for a rejected
// input report an error with the same position and message.
package difftest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/alecthomas/participle/v2"

	"github.com/tracekit/tracekit/ast/corpus"
	"github.com/tracekit/tracekit/grammar/internal/pgen/pgenrt"
)

// Engine parses one input into a tree of T.
type Engine[T any] func(input string) (*T, error)

// Compare runs both engines on input and returns a description of the
// first difference, or "" when they agree.
func Compare[T any](ref, gen Engine[T], input string) string {
	rt, rerr := ref(input)
	gt, gerr := gen(input)
	return CompareResults(rt, rerr, gt, gerr)
}

// CompareResults compares what the two engines returned: the trees when
// both succeed, the errors' positions and messages when both fail. It
// returns a description of the first difference, or "".
func CompareResults[T any](rt *T, rerr error, gt *T, gerr error) string {
	switch {
	case rerr != nil && gerr != nil:
		rp, rm := describe(rerr)
		gp, gm := describe(gerr)
		if rp != gp || rm != gm {
			return fmt.Sprintf("errors differ:\n  reference: %s: %s\n  generated: %s: %s", rp, rm, gp, gm)
		}
		return ""
	case rerr != nil:
		return fmt.Sprintf("reference fails (%v), generated parses: %#v", rerr, gt)
	case gerr != nil:
		return fmt.Sprintf("generated fails (%v), reference parses: %#v", gerr, rt)
	}
	if path, ok := equal(reflect.ValueOf(rt), reflect.ValueOf(gt), "tree"); !ok {
		return fmt.Sprintf("trees differ at %s:\n  reference: %#v\n  generated: %#v", path, rt, gt)
	}
	return ""
}

// Check reports (as a test error) a difference between the engines on input.
func Check[T any](tb testing.TB, ref, gen Engine[T], input string) {
	tb.Helper()
	if d := Compare(ref, gen, input); d != "" {
		tb.Errorf("%q: %s", input, d)
	}
}

func describe(err error) (pos, msg string) {
	var perr participle.Error
	if errors.As(err, &perr) {
		p := perr.Position()
		return fmt.Sprintf("%s:%d:%d@%d", p.Filename, p.Line, p.Column, p.Offset), perr.Message()
	}
	return "-", err.Error()
}

// equal compares two trees deeply; a nil slice equals an empty one (the
// generated parser may reuse a root's slices).
func equal(a, b reflect.Value, path string) (string, bool) {
	if a.Kind() != b.Kind() || a.Type() != b.Type() {
		return path, false
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return path, a.IsNil() == b.IsNil()
		}
		return equal(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		for i := range a.NumField() {
			if p, ok := equal(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); !ok {
				return p, false
			}
		}
		return "", true
	case reflect.Slice:
		if a.Len() != b.Len() {
			return path + " (length)", false
		}
		for i := range a.Len() {
			if p, ok := equal(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); !ok {
				return p, false
			}
		}
		return "", true
	case reflect.String:
		return path, a.String() == b.String()
	case reflect.Bool:
		return path, a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return path, a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return path, a.Uint() == b.Uint()
	}
	return path, reflect.DeepEqual(a.Interface(), b.Interface())
}

// Lines returns the lines (without line breaks) of the files matching the
// patterns: relative to the test's package, or, with the prefix
// "shared:", to the shared corpus (skipped when it is absent). A pattern
// that matches nothing fails the test, so a moved fixture is noticed.
func Lines(tb testing.TB, patterns ...string) []string {
	tb.Helper()
	var out []string
	for _, pat := range patterns {
		if rest, ok := cutPrefix(pat, "shared:"); ok {
			root := corpus.Root()
			if root == "" {
				tb.Logf("shared corpus is absent; %s not read", pat)
				continue
			}
			pat = filepath.Join(root, rest)
		}
		files, err := filepath.Glob(pat)
		if err != nil || len(files) == 0 {
			tb.Fatalf("no file matches %s", pat)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				tb.Fatal(err)
			}
			sc := bufio.NewScanner(bytes.NewReader(data))
			sc.Buffer(nil, 4<<20)
			for sc.Scan() {
				out = append(out, string(bytes.TrimSuffix(sc.Bytes(), []byte("\r"))))
			}
		}
	}
	return out
}

func cutPrefix(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && s[:len(prefix)] == prefix {
		return s[len(prefix):], true
	}
	return s, false
}

// Participle is the reference engine: p's ParseString with no file name.
func Participle[T any](p *participle.Parser[T]) Engine[T] {
	return func(input string) (*T, error) { return p.ParseString("", input) }
}

// Merged fails t for each lexer, by name, that pgen did not write as one
// merged automaton in code (pgenrt.Lexer.Code): when the merge of its rules
// grows past what the tables hold, pgen falls back to one automaton a rule,
// tried in order, several times slower; the token pattern that grew is then
// to be made simpler.
func Merged(t testing.TB, lexers map[string]*pgenrt.Lexer) {
	t.Helper()
	for name, lx := range lexers {
		if lx.Code == nil {
			t.Errorf("%s is no longer one merged automaton (pgen fell back to one automaton a rule, %d of them): simplify the token pattern that grew", name, len(lx.Automata))
		}
	}
}
