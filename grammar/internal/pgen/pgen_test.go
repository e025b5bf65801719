package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedUpToDate regenerates the parser of every grammar package
// that has one and fails when the committed file differs: run go generate
// ./grammar/... after changing a grammar.
func TestGeneratedUpToDate(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "*", OutputName))
	files = append(files, filepath.Join("sample", OutputName))
	if err != nil || len(files) == 1 {
		t.Fatalf("no generated parser found under grammar/ (%v)", err)
	}
	for _, f := range files {
		dir := filepath.Dir(f)
		want, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Generate(dir)
		if err != nil {
			t.Errorf("%s: %v", dir, err)
			continue
		}
		if !bytes.Equal(got, want) {
			// The command as it runs from the module's root.
			root, _ := filepath.Abs(filepath.Join("..", "..", ".."))
			abs, _ := filepath.Abs(dir)
			rel, _ := filepath.Rel(root, abs)
			t.Errorf("%s is stale: run go generate ./%s (from the module's root)", f, filepath.ToSlash(rel))
		}
	}
}

// TestRefused: constructs outside the supported subset are refused with a
// message naming the struct, the field and the construct.
func TestRefused(t *testing.T) {
	const head = "package g\n\nimport (\n\t\"github.com/alecthomas/participle/v2\"\n\t\"github.com/alecthomas/participle/v2/lexer\"\n)\n\n" +
		"var lx = lexer.MustSimple([]lexer.SimpleRule{{Name: \"Word\", Pattern: `[a-z]+`}, {Name: \"Space\", Pattern: `\\s+`}})\n"
	tests := []struct{ src, want string }{
		{"var p = participle.MustBuild[line](participle.Lexer(lx))\ntype line struct {\n\tA string `parser:\"~Word\"`\n}\n", "line.A: negation"},
		{"var p = participle.MustBuild[line](participle.Lexer(lx))\ntype line struct {\n\tA int `parser:\"@Word\"`\n}\n", "line.A: @ capture into a field of type int"},
		{"var p = participle.MustBuild[line](participle.Lexer(lx))\ntype line struct {\n\tA string `parser:\"@Word:Word\"`\n}\n", "line.A"},
		{"var p = participle.MustBuild[line](participle.Lexer(lx))\ntype line struct {\n\tA string `parser:\"(?= Word) @Word\"`\n}\n", "line.A: lookahead groups"},
		{"var p = participle.MustBuild[line](participle.Lexer(lx))\ntype line struct {\n\tA []string `parser:\"(@Word*)*\"`\n}\n", "line: the repeated expression"},
		{"var p = participle.MustBuild[line](participle.Lexer(lx))\ntype line struct {\n\tA string `parser:\"@Space\"`\n}\n", ""},
		{"var p = participle.MustBuild[line](participle.Lexer(lx), participle.Elide(\"Space\"))\ntype line struct {\n\tA string `parser:\"@Space\"`\n}\n", "line.A: a reference to the elided token type Space"},
		{"var p = participle.MustBuild[line](participle.Lexer(lx), participle.CaseInsensitive(\"Word\"))\ntype line struct {\n\tA string `parser:\"@Word\"`\n}\n", "CaseInsensitive is supported with a custom lexer only"},
		{"var p = participle.MustBuild[line]()\ntype line struct {\n\tA string `parser:\"@Word\"`\n}\n", "default lexer"},
		{"var p = participle.MustBuild[line](participle.Lexer(lx2))\nvar lx2 = lexer.MustSimple([]lexer.SimpleRule{{Name: \"W\", Pattern: `^a`}})\ntype line struct {\n\tA string `parser:\"@W\"`\n}\n", "anchors"},
		{"var p = participle.MustBuild[line](participle.Lexer(lx2))\nvar lx2 = lexer.MustSimple([]lexer.SimpleRule{{Name: \"W\", Pattern: `[a-zé]`}})\ntype line struct {\n\tA string `parser:\"@W\"`\n}\n", "only some non-ASCII runes"},
		{"var p = participle.MustBuild[line](participle.Lexer(lx))\ntype line struct {\n\tA string `parser:\"@Word | Word?\"`\n}\n", "alternative 2"},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "g.go"), []byte(head+tt.src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Generate(dir)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: refused: %v", tt.src, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: got %v, want an error containing %q", tt.src, err, tt.want)
		}
	}
}
