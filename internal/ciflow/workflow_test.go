package ciflow

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

var (
	runWorkflow = flag.Bool("ciflow.run", false, "run the workflow's jobs step by step here (a minute or two: a .ci/run step)")
	record      = flag.Bool("ciflow.record", false, "with -ciflow.run, write the transcript and the comments to fixtures/ci/ (docs/ci.md includes them)")
)

const (
	moduleRoot   = "../.."
	workflowPath = moduleRoot + "/.github/workflows/memprof.yml"
	recordDir    = moduleRoot + "/fixtures/ci"
)

// The knobs shrunk for a local run: a few budgets of the repository's
// own file, one operation, short samples.
var shrunk = map[string]string{"MEMPROF_OPS": "verify", "MEMPROF_SAMPLES": "4", "MEMPROF_MIN_SAMPLE": "5ms"}

// regressionPatch adds 8 bytes to gnark-crypto's SecretKey scalar.
var regressionPatch = struct{ file, old, new, add string }{
	file: "suites/gnark/gnark.go",
	old:  "suitekit.Fill[fr.Element]{\n\t\tHow:     \"set by SetBytesCanonical of a 32-byte big-endian key from the IETF KeyGen (gnark-crypto has no KeyGen)\",\n\t\tPrepare: suitekit.Prepare(SecretKeyBytes),\n\t\tSet:     func(dst *fr.Element,",
	new:  "suitekit.Fill[paddedScalar]{\n\t\tHow:     \"set by SetBytesCanonical of a 32-byte big-endian key from the IETF KeyGen (gnark-crypto has no KeyGen)\",\n\t\tPrepare: suitekit.Prepare(SecretKeyBytes),\n\t\tSet:     func(dst *paddedScalar,",
	add:  "\n// paddedScalar is a scalar and 8 bytes more.\ntype paddedScalar struct {\n\tfr.Element\n\t_ [8]byte\n}\n",
}

// TestWorkflow runs .github/workflows/memprof.yml step by step: main's
// job on main (the amd64 rows, with and without cgo) and its review, main
// again on unchanged code, then the pull-request job on an unchanged
// branch and on one that adds 8 bytes to one representation.
func TestWorkflow(t *testing.T) {
	if !*runWorkflow {
		t.Skip("runs the workflow's steps (a minute or two): go test ./internal/ciflow -ciflow.run, a .ci/run step")
	}
	ctx := context.Background()
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	copyModule(t, repo)
	git(t, repo, "init", "-q", "-b", "main")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "main")
	w, err := ReadWorkflow(workflowPath)
	if err != nil {
		t.Fatal(err)
	}
	ghRoot := filepath.Join(root, "gh")
	if err := os.MkdirAll(ghRoot, 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"MEMPROF_BUDGETS": shrinkBudgets(t, filepath.Join(ghRoot, "small.budgets.yaml"))}
	for k, v := range shrunk {
		env[k] = v
	}
	var log bytes.Buffer
	r := &Runner{Workflow: w, Repo: repo, Repository: "memprof/memprof", Root: ghRoot, Env: env, Log: &log}

	// push runs main's job on each amd64 row, then the review.
	push := func(rows func(map[string]any) bool) (*Run, []*JobResult) {
		t.Helper()
		sha := git(t, repo, "rev-parse", "main")
		run, err := r.NewRun(Event{Name: "push", Ref: "refs/heads/main", SHA: sha})
		if err != nil {
			t.Fatal(err)
		}
		var jobs []*JobResult
		for _, row := range w.Rows("main") {
			if !rows(row) {
				continue
			}
			jobs = append(jobs, runJob(t, ctx, r, run, "main", row))
		}
		jobs = append(jobs, runJob(t, ctx, r, run, "review", nil))
		for _, j := range jobs {
			if j.Failed() {
				t.Errorf("push %s: job %s %v failed:\n%s", short(sha), j.Job, j.Matrix, failedSteps(j))
			}
		}
		return run, jobs
	}
	amd64 := func(row map[string]any) bool { return strings.HasPrefix(toString(row["machine"]), "amd64") }
	run1, _ := push(amd64)
	// The reference row's artifact holds its dashboard files.
	ref1 := filepath.Join(run1.Dir, "memprof-amd64-cgo")
	for _, f := range []string{"memory.json", "time.json", "bencher.json", "results.bench"} {
		if st, err := os.Stat(filepath.Join(ref1, f)); err != nil || st.Size() == 0 {
			t.Errorf("main's job wrote no dashboard file %s: %v", f, err)
		}
	}
	if err := r.Succeeded(run1); err != nil {
		t.Fatal(err)
	}

	// Unchanged code again: no failing step, and no memory alert in any
	// exported format.
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "unchanged")
	reference := func(row map[string]any) bool { return row["reference"] == true }
	run2, jobs2 := push(reference)
	if s := jobs2[0].Step("Dashboard (memory)"); s == nil || s.Outcome != Success || !strings.Contains(s.Output, ": 0 alerts") {
		t.Errorf("second run's memory dashboard: want success with 0 alerts, got %+v", s)
	}
	noMemoryAlerts(t, ref1, filepath.Join(run2.Dir, "memprof-amd64-cgo"))
	if err := r.Succeeded(run2); err != nil {
		t.Fatal(err)
	}
	base := git(t, repo, "rev-parse", "main")

	// pr runs the pull-request job on a branch of main.
	pr := func(branch string, number int, change func(dir string)) *JobResult {
		t.Helper()
		git(t, repo, "checkout", "-q", "-b", branch, "main")
		change(repo)
		git(t, repo, "commit", "-q", "-a", "--allow-empty", "-m", branch)
		head := git(t, repo, "rev-parse", "HEAD")
		git(t, repo, "checkout", "-q", "main")
		run, err := r.NewRun(Event{Name: "pull_request", Ref: "refs/pull/" + itoa(number) + "/merge", SHA: head,
			PullRequest: map[string]string{"number": itoa(number), "base.sha": base, "head.sha": head}})
		if err != nil {
			t.Fatal(err)
		}
		return runJob(t, ctx, r, run, "pull-request", nil)
	}
	same := pr("unchanged", 1, func(string) {})
	if same.Failed() {
		t.Errorf("pull request of unchanged code failed:\n%s", failedSteps(same))
	}
	comment := readFile(t, filepath.Join(same.Workspace, "comment.md"))
	for _, bad := range []string{"bytes regression", "allocs regression", "FAIL"} {
		if strings.Contains(comment, bad) {
			t.Errorf("unchanged branch's comment says %q:\n%s", bad, comment)
		}
	}
	if !strings.Contains(comment, "no regression detected") && !strings.Contains(comment, "time warning") {
		t.Errorf("unchanged branch's comment has no verdict of no memory regression:\n%s", comment)
	}

	grown := pr("regression", 2, func(dir string) {
		p := filepath.Join(dir, regressionPatch.file)
		src := readFile(t, p)
		if !strings.Contains(src, regressionPatch.old) {
			t.Fatalf("%s: the patch's anchor is gone: update regressionPatch", regressionPatch.file)
		}
		src = strings.Replace(src, regressionPatch.old, regressionPatch.new, 1) + regressionPatch.add
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	gate := grown.Step("Fail on a regression or a budget")
	if gate == nil || gate.Outcome != Failure {
		t.Errorf("regression branch: gate step %+v, want a failure", gate)
	} else if !strings.Contains(gate.Output, "SecretKey/gnark/scalar/pointer") || !strings.Contains(gate.Output, "budgets.yaml:") {
		t.Errorf("regression branch: the gate step does not name the budget (file:line) of SecretKey/gnark/scalar/pointer:\n%s", gate.Output)
	}
	comment2 := readFile(t, filepath.Join(grown.Workspace, "comment.md"))
	for _, want := range []string{"bytes regression", "SecretKey/gnark/scalar/pointer", short(base), "FAIL"} {
		if !strings.Contains(comment2, want) {
			t.Errorf("regression branch's comment lacks %q:\n%s", want, comment2)
		}
	}
	for _, title := range []string{"Write the comment", "Post the comment"} {
		if s := grown.Step(title); s == nil || s.Outcome != Success {
			t.Errorf("regression branch: step %q: %+v, want success", title, s)
		}
	}

	if *record && !t.Failed() {
		for name, text := range map[string]string{"run.txt": log.String(), "comment-unchanged.md": comment, "comment-regression.md": comment2} {
			if err := os.WriteFile(filepath.Join(recordDir, name), []byte(r.clean(text)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if t.Failed() {
		t.Logf("transcript:\n%s", r.clean(log.String()))
	}
}

func runJob(t *testing.T, ctx context.Context, r *Runner, run *Run, job string, row map[string]any) *JobResult {
	t.Helper()
	j, err := r.RunJob(ctx, run, job, row)
	if err != nil {
		t.Fatal(err)
	}
	if j.Skipped {
		t.Fatalf("job %s skipped on %s", job, run.Event.Name)
	}
	for _, s := range j.Steps {
		t.Logf("%s %v: %s: %s in %v", job, row["machine"], s.Title, s.Outcome, s.Took.Round(time.Millisecond))
	}
	return j
}

func failedSteps(j *JobResult) string {
	var b strings.Builder
	for _, s := range j.Steps {
		if s.Outcome == Failure {
			b.WriteString("step " + s.Title + ":\n" + s.Output + "\n")
		}
	}
	return b.String()
}

// noMemoryAlerts checks the memory figures of two runs' exports: none
// higher in the second, in any format.
func noMemoryAlerts(t *testing.T, dir1, dir2 string) {
	t.Helper()
	var a, b []BenchEntry
	readJSON(t, filepath.Join(dir1, "memory.json"), &a)
	readJSON(t, filepath.Join(dir2, "memory.json"), &b)
	if alerts := BenchAlerts(a, b, 1); len(alerts) > 0 || len(a) != len(b) {
		t.Errorf("github-action-benchmark memory: %d and %d entries, alerts at 100%%: %+v", len(a), len(b), alerts)
	}
	type metric struct {
		Value float64 `json:"value"`
	}
	var ba, bb map[string]map[string]metric
	readJSON(t, filepath.Join(dir1, "bencher.json"), &ba)
	readJSON(t, filepath.Join(dir2, "bencher.json"), &bb)
	for name, ms := range bb {
		for _, m := range []string{"bytes-per-instance", "allocs-per-instance"} {
			if v, ok := ms[m]; ok && v.Value > ba[name][m].Value {
				t.Errorf("bencher %s %s: %g, then %g", name, m, ba[name][m].Value, v.Value)
			}
		}
	}
	exactLines := func(dir string) string {
		var keep []string
		for _, l := range strings.Split(readFile(t, filepath.Join(dir, "results.bench")), "\n") {
			if strings.HasPrefix(l, "Benchmark") && (strings.Contains(l, " B/instance") || strings.Contains(l, " allocs/instance")) {
				keep = append(keep, l)
			}
		}
		return strings.Join(keep, "\n")
	}
	if x, y := exactLines(dir1), exactLines(dir2); x != y || x == "" {
		t.Errorf("benchfmt: the exact memory lines differ between two runs of unchanged code (or are missing):\n%s\n---\n%s", x, y)
	}
}

// shrinkBudgets writes the repository's budgets of SecretKey and
// Signature (min-pk) in blst and gnark to path, as they are.
func shrinkBudgets(t *testing.T, path string) string {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(readFile(t, moduleRoot+"/memprof.budgets.yaml")), &doc); err != nil {
		t.Fatal(err)
	}
	root := doc.Content[0]
	var kept int
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != "budgets" {
			continue
		}
		list := root.Content[i+1]
		var out []*yaml.Node
		for _, b := range list.Content {
			var v struct {
				Select struct {
					Type   string `yaml:"type"`
					Lib    any    `yaml:"lib"`
					Scheme string `yaml:"scheme"`
				} `yaml:"select"`
			}
			if err := b.Decode(&v); err != nil {
				t.Fatal(err)
			}
			if (v.Select.Type == "SecretKey" || v.Select.Type == "Signature") && strings.Contains(toString(v.Select.Lib), "gnark") && v.Select.Scheme != "min-sig" {
				out = append(out, b)
			}
		}
		list.Content, kept = out, len(out)
	}
	if kept == 0 {
		t.Fatal("memprof.budgets.yaml: no budget of SecretKey or Signature in gnark")
	}
	b, err := yaml.Marshal(&doc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// copyModule copies the module's files that git tracks, or would (not
// ignored), to dir.
func copyModule(t *testing.T, dir string) {
	t.Helper()
	out := git(t, moduleRoot, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	for _, f := range strings.Split(strings.TrimRight(out, "\x00"), "\x00") {
		src := filepath.Join(moduleRoot, f)
		st, err := os.Lstat(src)
		if err != nil || !st.Mode().IsRegular() {
			continue // deleted in the work tree, or a link
		}
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, st.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=ciflow", "GIT_AUTHOR_EMAIL=ciflow@example.com",
		"GIT_COMMITTER_NAME=ciflow", "GIT_COMMITTER_EMAIL=ciflow@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, out)
	}
	if strings.Contains(args[0], "ls-files") {
		return string(out)
	}
	return strings.TrimSpace(string(out))
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(readFile(t, path)), v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func itoa(n int) string { return toString(float64(n)) }
