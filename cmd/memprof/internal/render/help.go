package render

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// The help of memprof's commands: their usage lines, descriptions, flags
// and examples, wrapped as help prints them.

// HelpWidth is the width help text is wrapped at.
const HelpWidth = 76

// HelpParagraphs wraps paragraphs for a command's help, a blank line
// between them.
func HelpParagraphs(paragraphs ...string) string {
	out := make([]string, len(paragraphs))
	for i, p := range paragraphs {
		out[i] = Wrap(p, HelpWidth, "")
	}
	return strings.Join(out, "\n\n")
}

// CommandHelp writes a command's help: its usage line (wrapped at 80
// columns), its description long, its flags (when fs is not nil) and its
// examples.
func CommandHelp(w io.Writer, name, usage, long string, fs *flag.FlagSet, examples []Example) {
	fmt.Fprintf(w, "%s\n", UsageLine(name, usage))
	if long != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(long))
	}
	if fs != nil {
		fmt.Fprintf(w, "\nFlags:\n")
		writeFlags(w, fs)
	}
	if len(examples) > 0 {
		fmt.Fprintf(w, "\nEXAMPLES\n\n")
		for _, e := range examples {
			WriteExample(w, e)
		}
	}
}

// tabStop is the column a tab in the flags' help moves to.
const tabStop = 8

// writeFlags writes fs's flags as fs.PrintDefaults does, with each
// flag's usage wrapped between words at UsageWidth (a tab counted to the
// column tabStop), its lines after the first indented as PrintDefaults
// indents them.
func writeFlags(w io.Writer, fs *flag.FlagSet) {
	prev := fs.Output()
	var b strings.Builder
	fs.SetOutput(&b)
	fs.PrintDefaults()
	fs.SetOutput(prev)
	const indent = "    \t"
	for _, line := range strings.SplitAfter(b.String(), "\n") {
		lead, text, ok := strings.Cut(line, "\t")
		if !ok || len(lead) >= tabStop {
			io.WriteString(w, line)
			continue
		}
		body, nl := strings.CutSuffix(text, "\n")
		wrapped := strings.Join(fillLines(strings.Fields(body), UsageWidth-tabStop, UsageWidth-tabStop), "\n"+indent)
		io.WriteString(w, lead+"\t"+wrapped)
		if nl {
			io.WriteString(w, "\n")
		}
	}
}

// UsageWidth is the width the usage lines are wrapped at.
const UsageWidth = 80

// UsageLine writes "usage: memprof ", the command's name and its usage line,
// wrapped at UsageWidth between its bracketed groups (inside one only
// where it is wider than a line), the lines after the first indented
// under the command's arguments.
func UsageLine(name, usage string) string {
	lead := "usage: memprof "
	indent := strings.Repeat(" ", len(lead)+len(name)+1)
	return lead + WrapGroups(usage, UsageWidth-len(lead), UsageWidth, indent)
}

// Example is one example of a command's help: a real command line and
// what it shows.
type Example struct {
	Line string // "memprof instances --type Signature"
	What string // "bytes per instance of every signature representation"
	// Measures: the example measures (or fetches, or writes a review)
	// and takes seconds to minutes: go test checks that its flags and
	// selection are accepted, .ci/run runs it at a small N. The others
	// go test runs.
	Measures bool
}

// WriteExample writes an example: what it shows, as a comment, and its
// command, continued with " \\" on the next line where it is wider than
// UsageWidth (a shell reads it as one line).
func WriteExample(w io.Writer, e Example) {
	const indent = "  "
	var lines []string
	line := ""
	for _, word := range strings.Fields(e.Line) {
		switch {
		case line == "":
			line = word
		case len(indent)+len(line)+1+len(word)+2 <= UsageWidth:
			line += " " + word
		default:
			lines = append(lines, line+" \\")
			line = "  " + word
		}
	}
	lines = append(lines, line)
	fmt.Fprintf(w, "%s# %s\n%s%s\n\n", indent, Wrap(e.What, UsageWidth-4, indent+"# "), indent, strings.Join(lines, "\n"+indent))
}
