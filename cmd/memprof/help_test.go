package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
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
