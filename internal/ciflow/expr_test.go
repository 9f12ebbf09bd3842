package ciflow

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var shellcheckPath = flag.String("ciflow.shellcheck", "", "lint the gh stand-in with the shellcheck at `path` (a .ci/run step)")

func TestEval(t *testing.T) {
	c := &Context{EventName: "pull_request", Matrix: map[string]any{"machine": "amd64-cgo", "reference": true, "cgo": "0"},
		PullRequest: map[string]string{"number": "7", "base.sha": "abc"}, Secrets: map[string]string{"GITHUB_TOKEN": "t"},
		Steps: map[string]map[string]string{"gate": {"check": "1"}}}
	tests := []struct {
		expr string
		want string
	}{
		{"matrix.machine", "amd64-cgo"},
		{"matrix.reference", "true"},
		{"github.event_name == 'pull_request'", "true"},
		{"github.event_name == 'PUSH'", "false"},
		{"github.event.pull_request.number || github.ref", "7"},
		{"github.event.pull_request.base.sha", "abc"},
		{"secrets.GITHUB_TOKEN", "t"},
		{"secrets.OTHER", ""},
		{"steps.gate.outputs.check != ''", "true"},
		{"steps.none.outputs.x", ""},
		{"always() && steps.gate.outputs.check != ''", "true"},
		{"!matrix.reference", "false"},
		{"(matrix.cgo == '0') && 'yes'", "yes"},
		{"'it''s'", "it's"},
	}
	for _, tt := range tests {
		v, err := c.Eval(tt.expr)
		if err != nil {
			t.Errorf("%s: %v", tt.expr, err)
			continue
		}
		if got := toString(v); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.expr, got, tt.want)
		}
	}
	for _, bad := range []string{"env.X", "github.actor", "matrix.os", "contains(matrix.machine, 'amd')", "fromJSON('1')", "1 <", "(matrix.machine", "hashFiles('go.sum')", "steps.gate.outcome"} {
		if v, err := c.Eval(bad); err == nil {
			t.Errorf("%s: got %v, want an error (a form the stand-in does not evaluate)", bad, v)
		}
	}
}

func TestIf(t *testing.T) {
	tests := []struct {
		cond   string
		failed bool
		want   bool
	}{
		{"", false, true},
		{"", true, false},
		{"matrix.reference", false, true},
		{"matrix.reference", true, false}, // success() && implied
		{"always()", true, true},
		{"always() && matrix.reference", true, true},
		{"${{ failure() }}", true, true},
		{"failure()", false, false},
	}
	for _, tt := range tests {
		c := &Context{Matrix: map[string]any{"reference": true}, Failed: tt.failed}
		got, err := c.If(tt.cond)
		if err != nil || got != tt.want {
			t.Errorf("if %q (failed %v): got %v, %v, want %v", tt.cond, tt.failed, got, err, tt.want)
		}
	}
}

func TestInterpolate(t *testing.T) {
	c := &Context{Matrix: map[string]any{"machine": "arm64"}}
	got, err := c.Interpolate("memprof-${{ matrix.machine }}-${{matrix.machine}}")
	if err != nil || got != "memprof-arm64-arm64" {
		t.Errorf("got %q, %v", got, err)
	}
	if _, err := c.Interpolate("${{ matrix.machine"); err == nil {
		t.Error("unterminated ${{: got no error")
	}
}

// TestWorkflowFile: every if:, env: and with: of the committed workflow
// evaluates under both events, no run: script holds an expression, and
// every action is pinned and has a stand-in (so TestWorkflow can run it).
func TestWorkflowFile(t *testing.T) {
	w, err := ReadWorkflow(workflowPath)
	if err != nil {
		t.Fatal(err)
	}
	standIns := []string{"actions/checkout", "actions/setup-go", "actions/upload-artifact", "actions/download-artifact", "benchmark-action/github-action-benchmark", "actions/github-script"}
	for _, ev := range []string{"push", "pull_request"} {
		for name, j := range w.Jobs {
			for _, row := range w.Rows(name) {
				c := &Context{EventName: ev, Matrix: row, PullRequest: map[string]string{"number": "1", "base.sha": "b", "head.sha": "h"}, Steps: map[string]map[string]string{}}
				if _, err := c.If(j.If); err != nil {
					t.Errorf("job %s: %v", name, err)
				}
				for k, v := range j.Env {
					if _, err := c.Interpolate(v); err != nil {
						t.Errorf("job %s: env %s: %v", name, k, err)
					}
				}
				for _, s := range j.Steps {
					if _, err := c.If(s.If); err != nil {
						t.Errorf("job %s, step %s: %v", name, s.Title(), err)
					}
					for k, v := range s.Env {
						if _, err := c.Interpolate(v); err != nil {
							t.Errorf("job %s, step %s: env %s: %v", name, s.Title(), k, err)
						}
					}
					for k, v := range s.With {
						if _, err := c.Interpolate(toString(v)); err != nil {
							t.Errorf("job %s, step %s: with %s: %v", name, s.Title(), k, err)
						}
					}
					if strings.Contains(s.Run, "${{") {
						t.Errorf("job %s, step %s: run: holds an expression: pass it through env:", name, s.Title())
					}
					if s.Uses != "" {
						action, _, _ := strings.Cut(s.Uses, "@")
						if !pinned.MatchString(s.Uses) {
							t.Errorf("job %s: uses %s: not pinned", name, s.Uses)
						}
						if !slices.Contains(standIns, action) {
							t.Errorf("job %s: uses %s: no stand-in", name, s.Uses)
						}
					}
				}
			}
		}
	}
	for _, k := range []string{"MEMPROF_BUDGETS", "MEMPROF_OPS", "MEMPROF_SAMPLES", "MEMPROF_MIN_SAMPLE"} {
		if _, ok := w.Env[k]; !ok {
			t.Errorf("the workflow's env: lacks the knob %s", k)
		}
	}
	for k := range shrunk {
		if _, ok := w.Env[k]; !ok {
			t.Errorf("TestWorkflow shrinks %s, which the workflow's env: lacks", k)
		}
	}
}

// TestGHStub: the gh stand-in lists the latest successful run on main,
// downloads an artifact of it, and refuses what it does not serve.
func TestGHStub(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	r := &Runner{Root: t.TempDir(), Repository: "o/r"}
	bin, err := r.stubDir()
	if err != nil {
		t.Fatal(err)
	}
	run, err := r.NewRun(Event{Name: "push"})
	if err != nil {
		t.Fatal(err)
	}
	art := filepath.Join(run.Dir, "memprof-amd64-cgo")
	if err := os.MkdirAll(art, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(art, "results.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gh := func(args ...string) (string, error) {
		cmd := exec.Command(filepath.Join(bin, "gh"), args...)
		cmd.Env = append(os.Environ(), "CIFLOW_RUNS="+filepath.Join(r.Root, "runs"))
		cmd.Dir = r.Root
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	list := []string{"run", "list", "--branch", "main", "--event", "push", "--status", "success", "--limit", "1", "--json", "databaseId,url", "--jq"}
	if out, err := gh(append(list, ".[0].databaseId")...); err != nil || out != "" {
		t.Errorf("before a successful run: got %q, %v, want nothing", out, err)
	}
	if err := r.Succeeded(run); err != nil {
		t.Fatal(err)
	}
	if out, err := gh(append(list, ".[0].databaseId")...); err != nil || out != "1\n" {
		t.Errorf("gh run list id: got %q, %v", out, err)
	}
	if out, err := gh(append(list, ".[0].url")...); err != nil || out != "https://github.com/o/r/actions/runs/1\n" {
		t.Errorf("gh run list url: got %q, %v", out, err)
	}
	if _, err := gh(append(list, ".[0]")...); err == nil {
		t.Errorf("gh run list --jq .[0]: got no error, want one (a query the stand-in does not answer)")
	}
	if out, err := gh("run", "download", "1", "--name", "memprof-amd64-cgo", "--dir", "base"); err != nil {
		t.Errorf("gh run download: %v: %s", err, out)
	} else if _, err := os.Stat(filepath.Join(r.Root, "base", "results.json")); err != nil {
		t.Errorf("gh run download: %v", err)
	}
	for _, bad := range [][]string{{"run", "download", "1", "--name", "memprof-arm64"}, {"run", "list", "--branch", "dev"}, {"pr", "comment"}} {
		if _, err := gh(bad...); err == nil {
			t.Errorf("gh %s: got no error", strings.Join(bad, " "))
		}
	}
	if *shellcheckPath != "" {
		if out, err := exec.Command(*shellcheckPath, filepath.Join(bin, "gh")).CombinedOutput(); err != nil {
			t.Errorf("shellcheck of the gh stand-in: %v\n%s", err, out)
		}
	}
}

// TestBenchAlerts: github-action-benchmark's rule, value over the
// previous value above the threshold, for names in both.
func TestBenchAlerts(t *testing.T) {
	prev := []BenchEntry{{Name: "a", Value: 100}, {Name: "b", Value: 100}, {Name: "z", Value: 0}}
	cur := []BenchEntry{{Name: "a", Value: 100}, {Name: "b", Value: 101}, {Name: "c", Value: 500}, {Name: "z", Value: 0}}
	if got := BenchAlerts(prev, cur, 1); len(got) != 1 || got[0].Name != "b" {
		t.Errorf("at 100%%: got %+v, want b only", got)
	}
	if got := BenchAlerts(prev, cur, 1.1); len(got) != 0 {
		t.Errorf("at 110%%: got %+v, want none", got)
	}
}
