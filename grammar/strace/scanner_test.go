package strace

import (
	"strings"
	"testing"

	"github.com/alecthomas/participle/v2/lexer"
)

// tokens lexes text with def: the tokens, or the error.
func tokens(t *testing.T, def lexer.Definition, text string) ([]lexer.Token, error) {
	t.Helper()
	l, err := def.(lexer.StringDefinition).LexString("", text)
	if err != nil {
		return nil, err
	}
	var out []lexer.Token
	for {
		tok, err := l.Next()
		if err != nil {
			return out, err
		}
		out = append(out, tok)
		if tok.EOF() {
			return out, nil
		}
	}
}

// sameTokens fails unless the scanner and lineLexer, its specification,
// lex text into the same tokens (or the same error).
func sameTokens(t *testing.T, text string) {
	want, werr := tokens(t, lineLexer, text)
	got, gerr := tokens(t, newScanner(lineLexer), text)
	if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
		t.Fatalf("%q: error %v, want %v", text, gerr, werr)
	}
	if len(got) != len(want) {
		t.Fatalf("%q: %d tokens %v, want %d %v", text, len(got), got, len(want), want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%q: token %d is %#v, want %#v", text, i, got[i], want[i])
		}
	}
}

var scannerSeeds = []string{
	`[pid  42] 10:00:01.5 open("/etc/passwd\x41\0", O_RDONLY|O_CLOEXEC) = 3</etc/passwd> <0.000123>`,
	`7387  00:09:47.789648 <... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = -1 ECHILD (No child processes)`,
	`1.5 --- SIGCHLD {si_signo=SIGCHLD, si_status=0} --- +++ killed by SIGKILL +++`,
	`f(~[1 2], {a=b, ...}, [1 => 2], x<y>, "a"..., /* c */ /*/ /**/) = ? <unavailable> <detached ...> <unfinished ...>`,
	`restart_syscall(<... resuming interrupted poll ...> <...x...> <... a<b ...> <... ...>`,
	`5<TCP:[1.2.3.4:80->5.6.7.8:9]> 1</dev/pts/0<char 136:0>> AT_FDCWD</h> -1<"a>b"> 3<[> 3<a]> 3<"> 3<<x>`,
	`0x1f 0xg -5 -x 12ab 00:00 12:34:56. 1. .5 <1.5> <1. - -> => && || == != << >> + * / % & | ^ ~ ! @ = [ : ? < > . ' ; $ # ` + "`" + ` \`,
	"\"\\\xff\" é \"\\é\" \x00 \x7f \v \f\r\t",
	// A failed search must not hide what a later start finds.
	`a<[x"y]"z`, `a<[x"y]"z"`, `a<["x] "y"`, `a<[ a<x "x"] "y"`, `/*/ /* */`, `a<[ /* ] */`, `3<"\"> "a\"b"`,
}

func TestScanner(t *testing.T) {
	for _, s := range scannerSeeds {
		sameTokens(t, s)
	}
}

// FuzzScanner: the scanner gives exactly the tokens of the regular
// expressions it implements.
func FuzzScanner(f *testing.F) {
	for _, s := range scannerSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if strings.Contains(text, "\n") {
			return // the lexer sees one line at a time
		}
		sameTokens(t, text)
	})
}
