package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/olekukonko/tablewriter/pkg/twwidth"

	workflow "github.com/memprof/memprof/run"
)

// flagLine is a flag in PrintDefaults' output: "  -name type".
var flagLine = regexp.MustCompile(`^  -([a-z][a-z0-9-]*)`)

// TestHelp lists for each command: its usage line names every flag it
// has (as -n or --name), its text is wrapped (no line wider than 80
// columns, a tab counting 8), and sizes print with units.
func TestHelpOfEveryCommand(t *testing.T) {
	for _, c := range commands {
		t.Run(c.Name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, c.Name, "-h")
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			text, flags, _ := strings.Cut(stdout, "\nFlags:\n")
			for i, line := range strings.Split(text, "\n") {
				if i == 0 {
					continue // the usage line is one line
				}
				if w := twwidth.Width(strings.ReplaceAll(line, "\t", "        ")); w > 80 {
					t.Errorf("line %d is %d columns wide, want at most 80: %q", i+1, w, line)
				}
			}
			usage := " " + strings.SplitN(text, "\n", 2)[0]
			for _, line := range strings.Split(flags, "\n") {
				m := flagLine.FindStringSubmatch(line)
				if m == nil {
					continue
				}
				name := dashed(m[1])
				if !strings.Contains(usage, "["+name+" ") && !strings.Contains(usage, "["+name+"]") &&
					!strings.Contains(usage, " "+name+" ") && !strings.Contains(usage, "("+name+" ") && !strings.Contains(usage, "| "+name+" ") && !strings.Contains(usage, "|"+name) && !strings.Contains(usage, "["+name+"=") {
					t.Errorf("usage line %q does not list %s", usage, name)
				}
			}
			if strings.Contains(flags, `(default "536870912")`) || strings.Contains(flags, "(default 536870912)") {
				t.Errorf("a size default prints as a byte count:\n%s", flags)
			}
		})
	}
}

// TestTimingLinePlurals: the timing line counts in words that agree with
// their numbers.
func TestTimingLinePlurals(t *testing.T) {
	tests := []struct {
		ops, groups, samples int
		want                 string
	}{
		{1, 1, 1, "timing 1 operation in 1 group (1 sample of at least 100ms each"},
		{28, 9, 10, "timing 28 operations in 9 groups (10 samples of at least 100ms each"},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		p := &progress{inv: &invocation{cmd: throughputCommand, stderr: &buf}}
		p.event(workflow.Event{Kind: workflow.TimingStarted, Timing: workflow.TimingPlan{Ops: tt.ops, Groups: tt.groups, Samples: tt.samples, MinSample: 100 * time.Millisecond}})
		if !strings.Contains(buf.String(), tt.want) {
			t.Errorf("got %q, want it to hold %q", buf.String(), tt.want)
		}
	}
}
