package main

import (
	"strings"

	"github.com/alecthomas/kong"
	"github.com/posener/complete"

	"github.com/tracekit/tracekit/lower/dialect"
)

// dialectLists are the lists of dialects the help texts name, all taken
// from the registry (lower/dialect), so that a new dialect shows in every
// help text without an edit here: ${dialects} every dialect,
// ${pairing_dialects} those whose halves of calls are paired,
// ${parallel_dialects} those lowered on all cores and ${generated_dialects}
// those "generate" writes. A help tag writes them with kong's escape of
// '$' ($${dialects}), and fillDialectLists fills them in.
func dialectLists() *strings.Replacer {
	var all, pairing, parallel []string
	for _, d := range dialect.List() {
		all = append(all, d.Name)
		if d.NewJoiner != nil {
			pairing = append(pairing, d.Name)
		}
		if d.NewJoiner != nil || d.NewSettler != nil {
			parallel = append(parallel, d.Name)
		}
	}
	return strings.NewReplacer(
		"${dialects}", strings.Join(all, ", "),
		"${pairing_dialects}", strings.Join(pairing, ", "),
		"${parallel_dialects}", strings.Join(parallel, ", "),
		"${generated_dialects}", strings.Join(dialect.Generated(), ", "),
	)
}

// fillDialectLists fills the lists of dialectLists into the help of every
// command, flag and argument of app. kong's variables (kong.Vars) would
// do it as kong builds the model, but kong then interpolates every one of
// them again for each flag and argument: with the lists and the version
// among them that was a third of the instructions of the start of every
// command (8.5M of 25.5M, some 3 ms; cachegrind of "tracekit version").
func fillDialectLists(app *kong.Application) {
	lists := dialectLists()
	fill := func(s string) string {
		if !strings.Contains(s, "${") {
			return s
		}
		return lists.Replace(s)
	}
	_ = kong.Visit(app, func(node kong.Visitable, next kong.Next) error {
		switch n := node.(type) {
		case *kong.Application:
			n.Help = fill(n.Help)
		case *kong.Node:
			n.Help = fill(n.Help)
		case *kong.Value:
			n.Help = fill(n.Help)
		}
		return next(nil)
	})
}

// completionPredictors complete the values of flags and arguments tagged
// completion-predictor: dialect names (every one, or those with a
// generator), trace files by the registered dialects' file patterns, and
// the files of the OS/2 commands by their extensions, in either case.
func completionPredictors() map[string]complete.Predictor {
	files := func(patterns ...string) complete.Predictor {
		var ps []complete.Predictor
		for _, p := range patterns {
			ps = append(ps, complete.PredictFiles(strings.ToLower(p)), complete.PredictFiles(strings.ToUpper(p)))
		}
		return complete.PredictOr(ps...)
	}
	var trace []string
	for _, d := range dialect.List() {
		trace = append(trace, d.Patterns...)
	}
	return map[string]complete.Predictor{
		"dialect":    complete.PredictSet(dialect.Names()...),
		"generated":  complete.PredictSet(dialect.Generated()...),
		"astdialect": complete.PredictSet(append([]string{"tsf"}, dialect.Names()...)...),
		"trace":      files(trace...),
		"tsf":        files("*.tsf"),
		"tfftdf":     files("*.tff", "*.tdf"),
		"tff":        files("*.tff"),
		"tdf":        files("*.tdf"),
		"buffer":     files("*.stda", "*.trc", "*.sav", "*.tfs", "*.dat"),
		"map":        files("*.map"),
		"module":     files("*.dll", "*.exe", "*.sys"),
		"json":       files("*.json"),
	}
}
