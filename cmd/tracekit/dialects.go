package main

import (
	"strings"

	"github.com/alecthomas/kong"
	"github.com/posener/complete"

	"github.com/tracekit/tracekit/lower/dialect"
)

// dialectVars are the lists of dialects the help texts name, all taken
// from the registry (lower/dialect), so that a new dialect shows in every
// help text without an edit here: ${dialects} every dialect,
// ${pairing_dialects} those whose halves of calls are paired,
// ${parallel_dialects} those lowered on all cores and ${generated_dialects}
// those "generate" writes.
func dialectVars() kong.Vars {
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
	return kong.Vars{
		"dialects":           strings.Join(all, ", "),
		"pairing_dialects":   strings.Join(pairing, ", "),
		"parallel_dialects":  strings.Join(parallel, ", "),
		"generated_dialects": strings.Join(dialect.Generated(), ", "),
	}
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
