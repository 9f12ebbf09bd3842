package render

import (
	"flag"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
)

// TestWriteFlags: the flags' help is PrintDefaults' words, in its order,
// wrapped between words so that no line is wider than UsageWidth (a tab
// counting to the column tabStop), each line of a usage after the first
// indented as PrintDefaults indents it.
func TestWriteFlags(t *testing.T) {
	long := strings.Repeat("representation ", 20) + "(comma-separated)"
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.String("repr", "", "only these `representations`: "+long)
	fs.Bool("v", false, "a one-letter flag on its line: "+long)
	fs.Int("n", 100000, "short")
	fs.String("word", "", strings.Repeat("x", UsageWidth+10)) // one word wider than a line
	var want strings.Builder
	fs.SetOutput(&want)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	var got strings.Builder
	writeFlags(&got, fs)

	if g, w := strings.Fields(got.String()), strings.Fields(want.String()); !slices.Equal(g, w) {
		t.Errorf("got the words\n%q\nwant PrintDefaults'\n%q", g, w)
	}
	lines := strings.Split(strings.TrimSuffix(got.String(), "\n"), "\n")
	for i, line := range lines {
		w := twwidth.Width(strings.Replace(line, "\t", strings.Repeat(" ", tabStop-strings.Index(line, "\t")), 1))
		if w > UsageWidth && !strings.Contains(line, strings.Repeat("x", UsageWidth)) {
			t.Errorf("line %d is %d columns wide, want at most %d: %q", i+1, w, UsageWidth, line)
		}
		if !strings.HasPrefix(line, "  -") && !strings.HasPrefix(line, "    \t") {
			t.Errorf("line %d: got %q, want a flag or a usage line indented as PrintDefaults does", i+1, line)
		}
	}
	if n := strings.Count(got.String(), "\n"); n <= strings.Count(want.String(), "\n") {
		t.Errorf("got %d lines, want more than PrintDefaults' %d: the long usages are not wrapped", n, strings.Count(want.String(), "\n"))
	}
	if !strings.Contains(got.String(), "  -v\ta one-letter flag on its line: representation") {
		t.Errorf("a one-letter boolean flag's usage is not on its line:\n%s", got.String())
	}
	if fs.Output() != io.Discard {
		t.Errorf("writeFlags did not give the flag set its output back")
	}
}
