package main

import (
	"bytes"
	"context"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/olekukonko/tablewriter/pkg/twwidth"

	"github.com/memprof/memprof/cmd/memprof/internal/cliflag"
	"github.com/memprof/memprof/workflow"
)

// flagLine is a flag in PrintDefaults' output: "  -name type".
var flagLine = regexp.MustCompile(`^  -([a-z][a-z0-9-]*)`)

// TestHelpOfEveryCommand lists for each command: its usage line, wrapped
// at 80 columns, names every flag it has (as -n or --name), its text is
// wrapped, its flags' usage too (no line wider than 80 columns, a tab
// counting 8), it ends with EXAMPLES, and sizes print with units.
func TestHelpOfEveryCommand(t *testing.T) {
	for _, c := range commands {
		t.Run(c.Name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, c.Name, "-h")
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			text, rest, _ := strings.Cut(stdout, "\nFlags:\n")
			flags, examples, ok := strings.Cut(rest, "\nEXAMPLES\n")
			if !ok || len(c.Examples) == 0 {
				t.Errorf("help does not end with EXAMPLES")
			}
			for i, line := range strings.Split(text+"\n"+flags+"\n"+examples, "\n") {
				if w := twwidth.Width(expandTabs(line)); w > 80 {
					t.Errorf("line %d is %d columns wide, want at most 80: %q", i+1, w, line)
				}
			}
			usageText, _, _ := strings.Cut(text, "\n\n")
			usage := " " + strings.Join(strings.Fields(usageText), " ")
			for _, line := range strings.Split(flags, "\n") {
				m := flagLine.FindStringSubmatch(line)
				if m == nil {
					continue
				}
				name := cliflag.Dashed(m[1])
				if !strings.Contains(usage, "["+name+" ") && !strings.Contains(usage, "["+name+"]") &&
					!strings.Contains(usage, " "+name+" ") && !strings.Contains(usage, "("+name+" ") && !strings.Contains(usage, "| "+name+" ") && !strings.Contains(usage, "|"+name) && !strings.Contains(usage, "["+name+"=") {
					t.Errorf("usage line %q does not list %s", usage, name)
				}
			}
			if strings.Contains(flags, `(default "536870912")`) || strings.Contains(flags, "(default 536870912)") {
				t.Errorf("a size default prints as a byte count:\n%s", flags)
			}
			for _, e := range c.Examples {
				if !strings.Contains(strings.ReplaceAll(examples, " \\\n    ", " "), "  "+e.Line+"\n") {
					t.Errorf("help does not show the example %q", e.Line)
				}
			}
		})
	}
}

// expandTabs replaces line's tabs with the spaces to the next multiple
// of 8 columns, as a terminal shows them.
func expandTabs(line string) string {
	var b strings.Builder
	for i, part := range strings.Split(line, "\t") {
		if i > 0 {
			b.WriteString(strings.Repeat(" ", 8-twwidth.Width(b.String())%8))
		}
		b.WriteString(part)
	}
	return b.String()
}

// exampleArgs returns the arguments of an example's command line, and
// fails unless it runs memprof's command c.
func exampleArgs(t *testing.T, c *command, e example) []string {
	t.Helper()
	f := strings.Fields(e.Line)
	if len(f) < 2 || f[0] != "memprof" || f[1] != c.Name {
		t.Fatalf("example %q of %s is not a memprof %s command", e.Line, c.Name, c.Name)
	}
	if strings.ContainsAny(e.Line, `"'$`) {
		t.Fatalf("example %q needs a shell's quoting: the test splits at spaces", e.Line)
	}
	return f[1:]
}

// TestHelpExamples runs every example of every command's help from the
// module's root, as a reader would type it: those that only read
// fixtures (list, version, show, and heapscan, check, compare and export
// on fixtures) for real, which must not be refused (exit 0, or 1 for a
// gate that fails by design); those that measure, fetch or write a
// review as a dry run, which checks their flags and selection and stops
// before the work (.ci/run runs them: TestHelpExamplesMeasure).
func TestHelpExamples(t *testing.T) {
	t.Chdir("../..")
	n := 0
	for _, c := range commands {
		for _, e := range c.Examples {
			n++
			t.Run(e.Line, func(t *testing.T) {
				args := exampleArgs(t, c, e)
				ctx := context.Background()
				if e.Measures {
					ctx = withDryRun(ctx)
				}
				var stdout, stderr bytes.Buffer
				code := run(ctx, args, &stdout, &stderr)
				switch {
				case code == exitUsage || strings.Contains(stderr.String(), "for usage."):
					t.Errorf("refused (exit %d): %s", code, stderr.String())
				case e.Measures && code == exitFailure && !testBuiltWithCgo && strings.Contains(stderr.String(), "--skip-cgo"):
					// Without cgo, budgets whose every case needs it are
					// refused unless the runner says --skip-cgo (issue 31).
				case e.Measures && code != exitOK:
					t.Errorf("dry run: exit %d, want 0: %s", code, stderr.String())
				case code != exitOK && code != exitFailure:
					t.Errorf("exit %d: %s", code, stderr.String())
				case !e.Measures && stdout.Len() == 0:
					t.Errorf("printed nothing: %s", stderr.String())
				}
			})
		}
	}
	if n < len(commands) {
		t.Errorf("%d examples for %d commands", n, len(commands))
	}
}

// TestNoArguments: memprof alone prints the commands, one line each of
// at most 80 columns, to stderr, and exits 2.
func TestNoArguments(t *testing.T) {
	code, stdout, stderr := runCLI(t)
	if code != exitUsage || stdout != "" {
		t.Fatalf("exit %d, stdout %q; want 2 and nothing", code, stdout)
	}
	for _, c := range commands {
		if !regexp.MustCompile(`(?m)^  ` + c.Name + ` +\S`).MatchString(stderr) {
			t.Errorf("no line for %s in\n%s", c.Name, stderr)
		}
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(lines) > len(commands)+5 {
		t.Errorf("%d lines, want the commands and little more:\n%s", len(lines), stderr)
	}
	for _, l := range lines {
		if twwidth.Width(l) > 80 {
			t.Errorf("line of %d columns: %q", twwidth.Width(l), l)
		}
	}
}

// TestNearMisses: a near miss of a command, a flag or a value is
// answered with the nearest valid one; a bad duration or number says
// what was expected.
func TestNearMisses(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"instanses"}, "unknown command; did you mean instances?"},
		{[]string{"help", "thruoghput"}, "did you mean throughput?"},
		{[]string{"help", "metod"}, "memprof help metod: unknown command; did you mean method? the commands are check,"},
		{[]string{"instances", "--type", "Signatur"}, `unknown type "Signatur" (did you mean Signature?)`},
		{[]string{"instances", "--type", "Signature,Proff"}, `unknown type "Proff" (did you mean Proof?)`},
		{[]string{"instances", "--type", "G3"}, `unknown type "G3": valid`}, // G1 and G2 as near: no suggestion
		{[]string{"instances", "-fromat", "json", "--type", "Signature"}, "unknown flag --fromat; did you mean --format?"},
		{[]string{"throughput", "--type", "Signature", "--lib", "blts"}, `unknown lib "blts" (did you mean blst?)`},
		{[]string{"instances", "--type", "Signature", "--repr", "afine"}, `unknown repr "afine" (did you mean affine?)`},
		{[]string{"throughput", "--type", "Signature", "--op", "verfy"}, `unknown op "verfy" (did you mean verify?)`},
		{[]string{"instances", "--type", "Signature", "--format", "jsno"}, `unknown format "jsno" (did you mean json?)`},
		{[]string{"list", "--type", "kgz"}, `unknown type "kgz" (did you mean kzg?)`},
		{[]string{"throughput", "--type", "Signature", "--min-sample", "40"}, `--min-sample: "40" is not a duration; write 40ms`},
		{[]string{"instances", "--type", "Signature", "-n", "abc"}, `-n: "abc" is not a whole number: write one such as 100000`},
		{[]string{"instances", "--type", "Signature", "-n", "1e6"}, `-n: "1e6" is not a whole number as the flag takes it; write 1000000`},
		{[]string{"check", "--headroom", "lots"}, `--headroom: "lots" is not a number: write one such as 1.2`},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			code, _, stderr := runCLI(t, tt.args...)
			if code != exitUsage || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, tt.want)
			}
		})
	}
	// Far from every name: no suggestion.
	if _, _, stderr := runCLI(t, "instances", "--type", "Zebra"); strings.Contains(stderr, "did you mean") {
		t.Errorf("a suggestion for a name near none: %s", stderr)
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

var measureExamples = flag.Bool("examples.measure", false, "run the help's measuring examples for real, at a small N (.ci/run does)")

// TestHelpExamplesMeasure runs, with -examples.measure, every example of
// the help that measures, as a reader would type it but at a small N and
// a short timing (-n 2000, --samples 1 --min-sample 1ms where the command
// times, --sweep-n 1000,2000,4000), its --out and -o in a temporary
// directory, its budgets file a copy, a URL fetched from a local server
// that serves a fixture profile. Each must succeed (check may find a
// budget exceeded at its N: exit 1).
func TestHelpExamplesMeasure(t *testing.T) {
	if !*measureExamples {
		t.Skip("measures for minutes: -examples.measure (.ci/run) runs it")
	}
	t.Chdir("../..")
	profile, err := os.ReadFile("fixtures/profiles/before.pb.gz")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(profile) }))
	defer srv.Close()
	for _, c := range commands {
		for _, e := range c.Examples {
			if !e.Measures {
				continue
			}
			t.Run(e.Line, func(t *testing.T) {
				args := smallExample(t, exampleArgs(t, c, e), srv.URL)
				var stdout, stderr bytes.Buffer
				code := run(context.Background(), args, &stdout, &stderr)
				if code != exitOK && !(c == checkCommand && code == exitFailure) {
					t.Errorf("memprof %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
				}
				t.Logf("memprof %s: exit %d, %d bytes of output", strings.Join(args, " "), code, stdout.Len())
			})
		}
	}
}

// smallExample returns an example's arguments for a quick real run (see
// TestHelpExamplesMeasure).
func smallExample(t *testing.T, args []string, serverURL string) []string {
	t.Helper()
	given := func(name string) bool { return slices.Contains(args, name) }
	out := slices.Clone(args)
	for i := range out {
		switch {
		case i > 0 && (out[i-1] == "--out" || out[i-1] == "-o"):
			out[i] = filepath.Join(t.TempDir(), "out")
		case i > 0 && out[i-1] == "--budgets":
			copied := filepath.Join(t.TempDir(), filepath.Base(out[i]))
			data, err := os.ReadFile(out[i])
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(copied, data, 0o644); err != nil {
				t.Fatal(err)
			}
			out[i] = copied
		case strings.HasPrefix(out[i], "http://localhost:6060"):
			out[i] = serverURL + strings.TrimPrefix(out[i], "http://localhost:6060")
		}
	}
	switch args[0] {
	case "instances", "report":
		if !given("-n") && !given("--from") {
			out = append(out, "-n", "2000")
		}
		if given("--sweep") && !given("--sweep-n") {
			out = append(out, "--sweep-n", "1000,2000,4000")
		}
	}
	times := args[0] == "throughput" || args[0] == "instances" && given("--with-throughput") || args[0] == "report" && !given("--from") && !given("--throughput=false")
	if times && !given("--samples") {
		out = append(out, "--samples", "1")
	}
	if times && !given("--min-sample") {
		out = append(out, "--min-sample", "1ms")
	}
	return out
}
