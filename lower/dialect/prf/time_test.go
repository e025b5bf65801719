package prf

import (
	"regexp"
	"strconv"
	"testing"
)

// The patterns the time fields were read with before the hand-written
// readers; the readers must accept exactly what they accept, with the same
// numbers.
var (
	refDate  = regexp.MustCompile(`^(\d{4})[/:-](\d{1,2})[/:-](\d{1,2})$`)
	refClock = regexp.MustCompile(`^(\d{1,2}):(\d{1,2}):(\d{1,2})$`)
	refSub   = regexp.MustCompile(`^(\d{1,3})/(\d{1,3})/(\d{1,3})$`)
)

func checkReader(t *testing.T, name string, re *regexp.Regexp, read func(string) ([3]int, bool), s string) {
	t.Helper()
	got, ok := read(s)
	m := re.FindStringSubmatch(s)
	if ok != (m != nil) {
		t.Fatalf("%s(%q): accepted %v, the pattern %v", name, s, ok, m != nil)
	}
	if !ok {
		return
	}
	for i := range 3 {
		if want, _ := strconv.Atoi(m[i+1]); got[i] != want {
			t.Fatalf("%s(%q) = %v, want %v", name, s, got, m[1:])
		}
	}
}

var timeSeeds = []string{"2000/02/12", "2000:2:1", "2000-12-31", "200/02/12", "20000/1/1", "2000/123/1", "2000/1/", "2000//1", "13:43:44", "1:2:3", "13:43:444", "13:43", "363/200/000", "1/2/3", "1234/1/1", "1/2/3/", " 1/2/3", "１/2/3", ""}

func TestTimeReaders(t *testing.T) {
	for _, s := range timeSeeds {
		checkReader(t, "parseDate", refDate, parseDate, s)
		checkReader(t, "parseClock", refClock, parseClock, s)
		checkReader(t, "parseSub", refSub, parseSub, s)
	}
}

func FuzzTimeReaders(f *testing.F) {
	for _, s := range timeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkReader(t, "parseDate", refDate, parseDate, s)
		checkReader(t, "parseClock", refClock, parseClock, s)
		checkReader(t, "parseSub", refSub, parseSub, s)
	})
}
