package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"golang.org/x/perf/benchfmt"

	"github.com/memprof/memprof/cmd/memprof/internal/tabletest"
	"github.com/memprof/memprof/results"
)

var updateDocs = flag.Bool("update", false, "re-render the show, run and include blocks of README.md and docs/*.md")

// docMarker is the comment that says what the code block after it is:
//
//	<!-- doc: show FILE [FLAGS] -->    memprof show FILE FLAGS, byte for byte
//	<!-- doc: run [exit=N] ARGS -->    a quick command (a refusal, list, check on
//	                                   fixtures), its stdout then stderr, byte for byte
//	<!-- doc: transcript -->           a recorded long run: "$ memprof ARGS" lines
//	                                   and their output; the commands must be accepted,
//	                                   the tables' columns must be memprof's
//	<!-- doc: include PATH -->         a committed file, byte for byte
//	<!-- doc: input -->                what a reader types (commands, Go, YAML): its
//	                                   memprof commands must be accepted
var docMarker = regexp.MustCompile(`^<!-- doc: (show|run|transcript|include|input)\b ?(.*?) ?-->$`)

// docBlock is one code block of a document and what it is.
type docBlock struct {
	file       string
	line       int // of the block's first line of content
	kind, args string
	content    string
	start, end int // byte range of the content in the file
}

func (b docBlock) String() string { return fmt.Sprintf("%s:%d", b.file, b.line) }

// docFiles are the documents whose blocks TestDocBlocks checks, relative
// to the module's root.
func docFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"README.md"}, files...)
}

// readDocBlocks returns every code block of file (fenced or indented, at
// any depth), each with the marker just before it; a block without one
// fails the test.
func readDocBlocks(t *testing.T, file string) []docBlock {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lineOf := func(off int) int { return 1 + bytes.Count(src[:off], []byte("\n")) }
	var out []docBlock
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	err = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.(type) {
		case *ast.CodeBlock, *ast.FencedCodeBlock:
		default:
			return ast.WalkContinue, nil
		}
		lines := n.Lines()
		b := docBlock{file: file}
		if lines.Len() > 0 {
			b.start, b.end = lines.At(0).Start, lines.At(lines.Len()-1).Stop
			b.line = lineOf(b.start)
			var s strings.Builder
			for i := range lines.Len() {
				seg := lines.At(i)
				s.Write(seg.Value(src))
			}
			b.content = s.String()
		}
		prev := n.PreviousSibling()
		if h, ok := prev.(*ast.HTMLBlock); ok {
			var s strings.Builder
			for i := range h.Lines().Len() {
				seg := h.Lines().At(i)
				s.Write(seg.Value(src))
			}
			if m := docMarker.FindStringSubmatch(strings.TrimSpace(s.String())); m != nil {
				b.kind, b.args = m[1], m[2]
			}
		}
		if b.kind == "" {
			t.Errorf("%s: a code block without a <!-- doc: show|run|transcript|include|input --> comment before it", b)
		}
		if _, fenced := n.(*ast.FencedCodeBlock); !fenced && b.kind != "input" {
			t.Errorf("%s: an output block must be fenced (```), so that it is shown byte for byte", b)
		}
		out = append(out, b)
		return ast.WalkSkipChildren, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDocBlocks checks every code block of README.md and docs/*.md as
// its marker says (docMarker). Show, run and include blocks are diffed
// byte for byte, and -update re-renders them in place; the results
// files they show are under fixtures/docs/, re-measured by
// fixtures/docs/measure.sh, not by a test. Nothing here measures.
func TestDocBlocks(t *testing.T) {
	t.Chdir("../..")
	t.Setenv("COLUMNS", "")
	kinds := map[string]int{}
	for _, file := range docFiles(t) {
		blocks := readDocBlocks(t, file)
		var edits []docEdit
		for _, b := range blocks {
			kinds[b.kind]++
			var want string
			var ok bool
			switch b.kind {
			case "show":
				want, ok = docRun(t, b, 0, append([]string{"show"}, strings.Fields(b.args)...))
			case "run":
				want, ok = docRunBlock(t, b)
			case "include":
				data, err := os.ReadFile(b.args)
				if err != nil {
					t.Errorf("%s: include: %v", b, err)
					continue
				}
				want, ok = string(data), true
			case "transcript":
				checkTranscript(t, b)
			case "input":
				checkInput(t, b)
			}
			if !ok || want == b.content {
				continue
			}
			if *updateDocs {
				edits = append(edits, docEdit{b.start, b.end, want})
				continue
			}
			t.Errorf("%s: the %s block differs from what %s prints (go test ./cmd/memprof -run TestDocBlocks -update re-renders it)\n%s",
				b, b.kind, b.args, lineDiff(b.content, want))
		}
		if len(edits) > 0 {
			applyDocEdits(t, file, edits)
		}
	}
	for _, k := range []string{"show", "run", "input", "include"} {
		if kinds[k] == 0 {
			t.Errorf("no %s block in the documents: is the marker still read?", k)
		}
	}
	t.Logf("blocks checked: %v", kinds)
}

// docRunBlock runs a run block's command: "exit=N" first says the exit
// status it must have (0 otherwise).
func docRunBlock(t *testing.T, b docBlock) (string, bool) {
	args := strings.Fields(b.args)
	code := 0
	if len(args) > 0 && strings.HasPrefix(args[0], "exit=") {
		n, err := strconv.Atoi(strings.TrimPrefix(args[0], "exit="))
		if err != nil {
			t.Errorf("%s: %s: want exit=N", b, args[0])
			return "", false
		}
		code, args = n, args[1:]
	}
	if len(args) > 0 && args[0] == "memprof" {
		args = args[1:]
	}
	return docRun(t, b, code, unquote(args))
}

// docRun runs memprof with args as a dry run (a command that would
// measure stops once its flags are checked, so no block can measure
// here) and returns its standard output then its standard error.
func docRun(t *testing.T, b docBlock, wantCode int, args []string) (string, bool) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(withDryRun(context.Background()), args, &stdout, &stderr)
	if code != wantCode {
		t.Errorf("%s: memprof %s: exit %d, want %d\n%s", b, strings.Join(args, " "), code, wantCode, stderr.String())
		return "", false
	}
	return stdout.String() + stderr.String(), true
}

// unquote undoes a shell's double or single quotes around whole
// arguments ("" is an empty argument).
func unquote(args []string) []string {
	out := slices.Clone(args)
	for i, a := range out {
		if len(a) >= 2 && (a[0] == '"' || a[0] == '\'') && a[len(a)-1] == a[0] {
			out[i] = a[1 : len(a)-1]
		}
	}
	return out
}

// commandLine returns the memprof arguments of a line a reader types
// ("go run ./cmd/memprof ARGS", "memprof ARGS", after "$ " and before a
// "#" comment), and whether it is one.
func commandLine(line string) ([]string, bool) {
	line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "$ "))
	if i := strings.Index(line, " #"); i >= 0 {
		line = strings.TrimSpace(line[:i])
	}
	for _, p := range []string{"go run ./cmd/memprof ", "memprof "} {
		if rest, ok := strings.CutPrefix(line, p); ok {
			if strings.ContainsAny(rest, "|<>;&`$") {
				return nil, false // a pipeline: not checked
			}
			return unquote(strings.Fields(rest)), true
		}
	}
	return nil, false
}

// checkDocCommand runs a command a document shows as a dry run: its flags
// and selection must be accepted (a file that a reader would have, such
// as heap.pb.gz, may be missing).
func checkDocCommand(t *testing.T, b docBlock, args []string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(withDryRun(context.Background()), args, &stdout, &stderr)
	if strings.Contains(stderr.String(), "for usage.") {
		t.Errorf("%s: memprof %s is refused (exit %d): %s", b, strings.Join(args, " "), code, stderr.String())
	}
}

// checkInput checks the memprof commands of a block a reader types.
func checkInput(t *testing.T, b docBlock) {
	for _, line := range strings.Split(b.content, "\n") {
		if args, ok := commandLine(line); ok {
			checkDocCommand(t, b, args)
		}
	}
}

// checkTranscript checks a recorded run: it starts with its command, every
// command in it is accepted, and its tables' columns are memprof's.
func checkTranscript(t *testing.T, b docBlock) {
	lines := strings.Split(b.content, "\n")
	if !strings.HasPrefix(lines[0], "$ ") {
		t.Errorf("%s: a transcript starts with its command, \"$ memprof ARGS\" (or \"$ go test ...\"): got %q", b, lines[0])
		return
	}
	var output []string
	for _, line := range lines {
		if strings.HasPrefix(line, "$ ") {
			if args, ok := commandLine(line); ok {
				checkDocCommand(t, b, args)
			}
			continue
		}
		output = append(output, line)
	}
	if _, ok := commandLine(lines[0]); !ok {
		checkBenchTranscript(t, b, strings.Join(output, "\n"))
		return
	}
	known := knownHeaders()
	tables, _ := tabletest.Parse(strings.Join(output, "\n"))
	for _, tb := range tables {
		if len(tb.Header) < 3 || len(tb.Rows) == 0 {
			continue // a few words apart on a line: not a table
		}
		for _, h := range tb.Header {
			if !known[h] {
				t.Errorf("%s: transcript's table has a column %q that memprof does not print (columns %q)", b, h, tb.Header)
			}
		}
	}
}

// checkBenchTranscript checks the output of a go test run: every line is
// Go benchmark format (benchfmt reads it without a syntax error), and
// there are results.
func checkBenchTranscript(t *testing.T, b docBlock, output string) {
	r := benchfmt.NewReader(strings.NewReader(output), b.String())
	n := 0
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			t.Errorf("%s: %v", b, rec)
		case *benchfmt.Result:
			n++
		}
	}
	if n == 0 {
		t.Errorf("%s: a go test transcript without benchmark results", b)
	}
}

// knownHeaders are the names of columns memprof's tables print.
func knownHeaders() map[string]bool {
	known := map[string]bool{}
	for _, c := range results.Columns {
		for _, n := range []string{c.Name, c.Label, c.MarkdownLabel, c.ShortLabel()} {
			if n != "" {
				known[n] = true
			}
		}
	}
	for _, n := range []string{"allocation site", "slot sizes", "slots"} {
		known[n] = true
	}
	return known
}

// docEdit replaces a block's content.
type docEdit struct {
	start, end int
	content    string
}

// applyDocEdits rewrites file with edits (in the order of the file).
func applyDocEdits(t *testing.T, file string, edits []docEdit) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	at := 0
	for _, e := range edits {
		out.Write(src[at:e.start])
		out.WriteString(e.content)
		at = e.end
	}
	out.Write(src[at:])
	if err := os.WriteFile(file, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// lineDiff shows the first lines where got and want differ.
func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n  doc:     %q\n  command: %q", i+1, gl, wl)
		}
	}
	return ""
}

// TestDocLinks: every relative link of README.md and docs/*.md names a
// file of the repository.
func TestDocLinks(t *testing.T) {
	t.Chdir("../..")
	for _, file := range docFiles(t) {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		doc := goldmark.New().Parser().Parse(text.NewReader(src))
		ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			l, ok := n.(*ast.Link)
			if !entering || !ok {
				return ast.WalkContinue, nil
			}
			dest := string(l.Destination)
			if strings.Contains(dest, "://") || strings.HasPrefix(dest, "#") || strings.HasPrefix(dest, "mailto:") {
				return ast.WalkContinue, nil
			}
			target, _, _ := strings.Cut(dest, "#")
			if _, err := os.Stat(filepath.Join(filepath.Dir(file), target)); err != nil {
				t.Errorf("%s: link %q: no such file", file, dest)
			}
			return ast.WalkContinue, nil
		})
	}
}
