package main

import (
	"bytes"
	"context"
	"crypto/sha256"
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

	"github.com/memprof/memprof/suites"
)

var updateDocs = flag.Bool("update", false, "re-render the show, run and include blocks of README.md and docs/*.md")

// docMarker is the comment that says what the code block after it is:
//
//	<!-- doc: show FILE [FLAGS] -->    memprof show FILE FLAGS, byte for byte
//	<!-- doc: run [exit=N] [stub=S] ARGS -->
//	                                   a quick command (a refusal, list, check on
//	                                   fixtures), its stdout then stderr, byte for
//	                                   byte; stub=S runs it on the registry docStubs[S]
//	<!-- doc: include PATH -->         a committed file, byte for byte
//	<!-- doc: input -->                what a reader types (commands, Go, YAML): its
//	                                   memprof commands must be accepted
//
// Every output block is what the binary prints here, now: a command that
// would measure, fetch or write stops in the dry run the blocks run under,
// and such a block is refused, as is a recorded run (a "transcript"): long
// runs are recorded in notes/, outside the manual.
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
		if h, ok := prev.(*ast.HTMLBlock); ok && h.Lines().Len() > 0 {
			var s strings.Builder
			for i := range h.Lines().Len() {
				seg := h.Lines().At(i)
				s.Write(seg.Value(src))
			}
			if m := docMarker.FindStringSubmatch(strings.TrimSpace(s.String())); m != nil {
				b.kind, b.args = m[1], m[2]
			}
			if lines.Len() == 0 {
				// An empty block: its content goes after its opening
				// fence, the line after the marker.
				b.start = emptyBlockStart(src, h.Lines().At(h.Lines().Len()-1).Stop)
				b.end, b.line = b.start, lineOf(b.start)
			}
		}
		if lines.Len() == 0 && b.end == 0 {
			t.Errorf("%s: an empty code block without a marker before it", b)
			return ast.WalkSkipChildren, nil
		}
		if b.kind == "" {
			t.Errorf("%s: a code block without a <!-- doc: show|run|include|input --> comment before it", b)
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
// files they show are under fixtures/, re-measured by
// scripts/fixtures.sh, not by a test. Nothing here measures: a block
// whose command stops in the dry run (it would measure, fetch or write)
// is refused, never written.
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
				t.Errorf("%s: a recorded run is not an output block the binary prints here: show it with a show or run block, or record it in notes/", b)
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
// status it must have (0 otherwise), and "stub=S" the registry of
// docStubs it runs on (the built-in suites otherwise).
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
	var stub func(*testing.T) *suites.Registry
	if len(args) > 0 && strings.HasPrefix(args[0], "stub=") {
		var ok bool
		if stub, ok = docStubs[strings.TrimPrefix(args[0], "stub=")]; !ok {
			t.Errorf("%s: %s: no such stub (docStubs)", b, args[0])
			return "", false
		}
		args = args[1:]
	}
	if len(args) > 0 && args[0] == "memprof" {
		args = args[1:]
	}
	if stub == nil {
		return docRun(t, b, code, unquote(args))
	}
	// A stub's registry is the test's: its checks are what the test made
	// them, and it has nothing to measure, so the command runs for real.
	r := stub(t)
	old := registry
	registry = func() *suites.Registry { return r }
	defer func() { registry = old }()
	out, err := docOutput(context.Background(), unquote(args), code)
	if err != nil {
		t.Errorf("%s: %v", b, err)
		return "", false
	}
	return out, true
}

// docRun runs memprof with args as a dry run (a command that would
// measure stops once its flags are checked, so no block can measure
// here) and returns its standard output then its standard error.
func docRun(t *testing.T, b docBlock, wantCode int, args []string) (string, bool) {
	t.Helper()
	out, err := docOutput(withDryRun(context.Background()), args, wantCode)
	if err != nil {
		t.Errorf("%s: %v", b, err)
		return "", false
	}
	return out, true
}

// docOutput is what memprof prints for args under ctx (a dry run, or a
// stub's real run), standard output then standard error. A command that
// stopped in a dry run is refused: what it printed is not its output.
func docOutput(ctx context.Context, args []string, wantCode int) (string, error) {
	var stdout, stderr bytes.Buffer
	code := run(ctx, args, &stdout, &stderr)
	if dryRunStopped(ctx) {
		return "", fmt.Errorf("memprof %s would measure, fetch or write, so here it stops in a dry run: a block shows only what the binary prints for real (a show of a results file, a quick command on fixtures)", strings.Join(args, " "))
	}
	if code != wantCode {
		return "", fmt.Errorf("memprof %s: exit %d, want %d\n%s", strings.Join(args, " "), code, wantCode, stderr.String())
	}
	return stdout.String() + stderr.String(), nil
}

// TestDocOutputRefusesDryRun: a command that would measure, fetch or
// write gives no block; one that reads fixtures gives its real output.
func TestDocOutputRefusesDryRun(t *testing.T) {
	t.Chdir("../..")
	for _, args := range [][]string{
		{"instances", "--type", "Signature"},
		{"verify"},
		{"report", "--type", "Signature", "--out", filepath.Join(t.TempDir(), "review")},
		{"check", "--budgets", "memprof.budgets.yaml"},
		{"heapscan", "http://localhost:1/debug/pprof/heap"},
		{"heapscan", "-o", filepath.Join(t.TempDir(), "out.txt"), "fixtures/profiles/before.pb.gz"},
	} {
		if _, err := docOutput(withDryRun(context.Background()), args, exitOK); err == nil || !strings.Contains(err.Error(), "dry run") {
			t.Errorf("memprof %s: got %v, want a refusal of the dry run", strings.Join(args, " "), err)
		}
	}
	out, err := docOutput(withDryRun(context.Background()), []string{"heapscan", "--format", "json", "--top", "1", "fixtures/profiles/before.pb.gz"}, exitOK)
	if err != nil || !strings.Contains(out, `"rows": [`) {
		t.Errorf("heapscan on a fixture: got %v and %q, want its JSON", err, out)
	}
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

// emptyBlockStart returns where the content of an empty fenced block
// goes: after the first line at or past off (the marker's end), which is
// its opening fence.
func emptyBlockStart(src []byte, off int) int {
	for off < len(src) && src[off] != '\n' && !bytes.HasPrefix(src[off:], []byte("```")) {
		off++
	}
	if off < len(src) && src[off] == '\n' {
		off++
	}
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(src)
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

// docStubs are the registries a run block may name with stub=NAME: each
// injects what a real run of the built-in suites does not print, so that
// a document shows the binary's own words for it.
var docStubs = map[string]func(t *testing.T) *suites.Registry{
	"disagree": disagreeingRegistry,
}

// disagreeingRegistry is the test family (testfamily_test.go) with a
// check that finds its library's public key of one case one byte off the
// vector's: verify then prints a disagreement as it prints any.
func disagreeingRegistry(t *testing.T) *suites.Registry {
	t.Helper()
	s := testFamilySuite()
	want := sha256.Sum256([]byte("case-2"))
	got := want
	got[5] ^= 0x04
	s.Checks[0].Run = func([]suites.FamilyAgreeLib) (*suites.AgreeReport, error) {
		return nil, &suites.Disagreement{Case: "case-2", Check: "public key", Lib: testFamilyLib,
			Against: "the test family's vectors", Got: got[:8], Want: want[:8]}
	}
	return registryOf(t, s)
}

// TestDocStubDisagree: the disagreement a document shows is verify's
// failure, naming the case and the first differing byte, exit 1.
func TestDocStubDisagree(t *testing.T) {
	r := disagreeingRegistry(t)
	useRegistry(t, func() *suites.Registry { return r })
	code, _, stderr := runCLI(t, "verify")
	if code != exitFailure {
		t.Fatalf("verify: exit %d, want %d: %s", code, exitFailure, stderr)
	}
	for _, want := range []string{"libraries disagree: case case-2: public key", "first difference at byte 5"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("verify: got %q, want it to contain %q", stderr, want)
		}
	}
}

// The manual's size: README.md and docs/*.md together, and the README
// alone. Dated measurements, recorded runs and test plans go to notes/.
const (
	maxManualLines = 3000
	maxReadmeLines = 250
)

// TestManualSize: the manual stays a manual.
func TestManualSize(t *testing.T) {
	t.Chdir("../..")
	total := 0
	for _, file := range docFiles(t) {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		n := bytes.Count(src, []byte("\n"))
		if file == "README.md" && n > maxReadmeLines {
			t.Errorf("README.md: %d lines, want at most %d", n, maxReadmeLines)
		}
		total += n
	}
	if total > maxManualLines {
		t.Errorf("README.md and docs/*.md: %d lines, want at most %d: move dated measurements, recorded runs and test plans to notes/", total, maxManualLines)
	}
}
