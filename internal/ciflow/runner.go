package ciflow

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The outcomes of a step, as steps.<id>.outcome spells them.
const (
	Success = "success"
	Failure = "failure"
	Skipped = "skipped"
)

// Event is what triggered a run: a push to a branch or a pull request.
type Event struct {
	Name string // push or pull_request
	Ref  string // refs/heads/main, refs/pull/1/merge
	SHA  string // GITHUB_SHA: the commit the jobs check out
	// PullRequest holds the pull request's number, base.sha and head.sha
	// (nil on a push).
	PullRequest map[string]string
}

// Run is one run of the workflow: its event, and the artifacts its jobs
// upload (Dir/<artifact name>/), which gh run download serves later.
type Run struct {
	ID    int
	Event Event
	Dir   string
}

// Runner runs the jobs of one workflow, one step after another, in a
// directory of its own (Root). It keeps the state GitHub would keep
// between runs: the runs' artifacts and the dashboards' data.
type Runner struct {
	Workflow *Workflow
	// Repo is the git repository the checkout stand-in clones from.
	Repo string
	// Repository is GITHUB_REPOSITORY, owner/name.
	Repository string
	// Root holds the runs, the jobs' workspaces and RUNNER_TEMP.
	Root string
	// Env replaces values of the workflow's env: (its knobs).
	Env map[string]string
	// Log receives the transcript: each step's title, output and outcome,
	// with Root written as /home/runner.
	Log io.Writer
	// Dashboards holds github-action-benchmark's data by series name: the
	// entries of the last run that pushed them.
	Dashboards map[string][]BenchEntry

	runs, jobs int
	stubs      string
}

// NewRun starts a run of event, its artifacts kept under Root.
func (r *Runner) NewRun(ev Event) (*Run, error) {
	r.runs++
	run := &Run{ID: r.runs, Event: ev, Dir: filepath.Join(r.Root, "runs", strconv.Itoa(r.runs))}
	return run, os.MkdirAll(run.Dir, 0o755)
}

// StepResult is what one step did.
type StepResult struct {
	ID, Title string
	Outcome   string
	Output    string
	Took      time.Duration
}

// JobResult is what one job of a run did.
type JobResult struct {
	Job       string
	Matrix    map[string]any
	Skipped   bool // its if: was false
	Workspace string
	Steps     []StepResult
	Summary   string // the steps' GITHUB_STEP_SUMMARY, joined
}

// Step returns the result of the step titled title, or nil.
func (j *JobResult) Step(title string) *StepResult {
	for i := range j.Steps {
		if j.Steps[i].Title == title {
			return &j.Steps[i]
		}
	}
	return nil
}

// Failed reports whether a step failed.
func (j *JobResult) Failed() bool {
	for _, s := range j.Steps {
		if s.Outcome == Failure {
			return true
		}
	}
	return false
}

// Rows returns the matrix rows of job (one nil row for a job without a
// matrix).
func (w *Workflow) Rows(job string) []map[string]any {
	if rows := w.Jobs[job].Strategy.Matrix.Include; len(rows) > 0 {
		return rows
	}
	return []map[string]any{nil}
}

// RunJob runs job of run, for one matrix row. The error is the runner's:
// an expression or an action it does not know, a workspace it could not
// make; a step that fails is an outcome, in the result.
func (r *Runner) RunJob(ctx context.Context, run *Run, job string, row map[string]any) (*JobResult, error) {
	j, ok := r.Workflow.Jobs[job]
	if !ok {
		return nil, fmt.Errorf("%s: no job %q", r.Workflow.Path, job)
	}
	r.jobs++
	dir := filepath.Join(r.Root, "jobs", strconv.Itoa(r.jobs))
	// Every job checks out into the same directory, as on GitHub's
	// runners (/home/runner/work/REPO/REPO): the build cache, keyed by
	// the sources' paths too, then serves the packages that did not
	// change.
	res := &JobResult{Job: job, Matrix: row, Workspace: filepath.Join(r.Root, "work", filepath.Base(r.Repository))}
	if err := os.RemoveAll(res.Workspace); err != nil {
		return nil, err
	}
	c := &Context{EventName: run.Event.Name, Ref: run.Event.Ref, Token: "stand-in-token", PullRequest: run.Event.PullRequest,
		Matrix: row, Secrets: map[string]string{"GITHUB_TOKEN": "stand-in-token"}, Steps: map[string]map[string]string{}}
	title := job
	if row != nil {
		title += " (" + fmt.Sprint(row["machine"]) + ")"
	}
	if ok, err := c.If(j.If); err != nil {
		return nil, fmt.Errorf("job %s: if: %w", job, err)
	} else if !ok {
		res.Skipped = true
		return res, nil
	}
	temp := filepath.Join(dir, "temp")
	if err := os.MkdirAll(temp, 0o755); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(res.Workspace, 0o755); err != nil {
		return nil, err
	}
	stubs, err := r.stubDir()
	if err != nil {
		return nil, err
	}
	// The environment every step starts from: the process's, what
	// GitHub sets, then the workflow's and the job's env: (evaluated).
	base := map[string]string{}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		base[k] = v
	}
	for k, v := range map[string]string{
		"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": run.Event.Name, "GITHUB_REF": run.Event.Ref,
		"GITHUB_SHA": run.Event.SHA, "GITHUB_REPOSITORY": r.Repository, "GITHUB_WORKSPACE": res.Workspace,
		"GITHUB_RUN_ID": strconv.Itoa(run.ID), "RUNNER_TEMP": temp, "PATH": stubs + string(os.PathListSeparator) + os.Getenv("PATH"),
		"CIFLOW_RUNS": filepath.Join(r.Root, "runs"),
	} {
		base[k] = v
	}
	for _, env := range []map[string]string{r.Workflow.Env, r.Env, j.Env} {
		for k, v := range env {
			if v, err = c.Interpolate(v); err != nil {
				return nil, fmt.Errorf("job %s: env %s: %w", job, k, err)
			}
			base[k] = v
		}
	}
	var summary strings.Builder
	for i := range j.Steps {
		s := &j.Steps[i]
		sr := StepResult{ID: s.ID, Title: s.Title()}
		run1, err := c.If(s.If)
		if err != nil {
			return nil, fmt.Errorf("job %s, step %q: if: %w", job, sr.Title, err)
		}
		fmt.Fprintf(r.Log, "\n== %s: %s\n", title, sr.Title)
		if !run1 {
			sr.Outcome = Skipped
			fmt.Fprintf(r.Log, "-- %s\n", Skipped)
			res.Steps = append(res.Steps, sr)
			continue
		}
		env := maps.Clone(base)
		for k, v := range s.Env {
			if v, err = c.Interpolate(v); err != nil {
				return nil, fmt.Errorf("job %s, step %q: env %s: %w", job, sr.Title, k, err)
			}
			env[k] = v
		}
		outputFile, summaryFile := filepath.Join(temp, fmt.Sprintf("output-%d", i)), filepath.Join(temp, fmt.Sprintf("summary-%d", i))
		for _, f := range []string{outputFile, summaryFile} {
			if err := os.WriteFile(f, nil, 0o644); err != nil {
				return nil, err
			}
		}
		env["GITHUB_OUTPUT"], env["GITHUB_STEP_SUMMARY"] = outputFile, summaryFile
		var out bytes.Buffer
		ok, start := false, time.Now()
		if s.Uses != "" {
			ok, err = r.action(ctx, run, c, s, env, res.Workspace, &out)
		} else {
			ok, err = r.script(ctx, s, env, res.Workspace, &out)
		}
		if err != nil {
			return nil, fmt.Errorf("job %s, step %q: %w", job, sr.Title, err)
		}
		sr.Output, sr.Took = out.String(), time.Since(start)
		sr.Outcome = Success
		if !ok {
			sr.Outcome, c.Failed = Failure, true
		}
		outputs, err := readOutputs(outputFile)
		if err != nil {
			return nil, fmt.Errorf("job %s, step %q: %s: %w", job, sr.Title, "GITHUB_OUTPUT", err)
		}
		if s.ID != "" {
			c.Steps[s.ID] = outputs
		}
		if b, err := os.ReadFile(summaryFile); err == nil {
			summary.Write(b)
		}
		io.WriteString(r.Log, r.clean(sr.Output))
		fmt.Fprintf(r.Log, "-- %s\n", sr.Outcome)
		res.Steps = append(res.Steps, sr)
	}
	res.Summary = summary.String()
	return res, nil
}

// clean writes the runner's directories as GitHub's would read.
func (r *Runner) clean(s string) string {
	s = strings.ReplaceAll(s, filepath.Join(r.Root, "work"), "/home/runner/work")
	s = strings.ReplaceAll(s, filepath.Join(r.Root, "jobs"), "/home/runner/jobs")
	return strings.ReplaceAll(s, r.Root, "/home/runner")
}

// maxStepTime bounds one step.
const maxStepTime = 15 * time.Minute

// script runs a run: step with bash -e, as GitHub does without shell:.
func (r *Runner) script(ctx context.Context, s *Step, env map[string]string, dir string, out io.Writer) (bool, error) {
	if s.Shell != "" && s.Shell != "bash" {
		return false, fmt.Errorf("shell %q: this stand-in runs bash only", s.Shell)
	}
	// The workflow passes values to scripts through env: (an expression
	// inside a script is a script injection), so a script holds none.
	if strings.Contains(s.Run, "${{") {
		return false, fmt.Errorf("run: holds ${{ }}: pass the value through env:")
	}
	ctx, cancel := context.WithTimeout(ctx, maxStepTime)
	defer cancel()
	args := []string{"--noprofile", "--norc", "-e", "-c", s.Run, "bash"}
	if s.Shell == "bash" {
		args = []string{"--noprofile", "--norc", "-eo", "pipefail", "-c", s.Run, "bash"}
	}
	cmd := exec.CommandContext(ctx, "bash", args...)
	cmd.Dir, cmd.Stdout, cmd.Stderr, cmd.Env = dir, out, out, environ(env)
	err := cmd.Run()
	if _, failed := err.(*exec.ExitError); failed {
		fmt.Fprintf(out, "Error: Process completed with exit code %d.\n", cmd.ProcessState.ExitCode())
		return false, nil
	}
	return err == nil, err
}

func environ(env map[string]string) []string {
	var out []string
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// readOutputs reads a GITHUB_OUTPUT file: name=value lines and
// name<<DELIMITER blocks.
func readOutputs(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if name, delim, ok := strings.Cut(line, "<<"); ok && !strings.Contains(name, "=") {
			var v []string
			for sc.Scan() && sc.Text() != delim {
				v = append(v, sc.Text())
			}
			out[name] = strings.Join(v, "\n")
			continue
		}
		name, v, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("line %d: %q is neither name=value nor name<<DELIMITER", n, line)
		}
		out[name] = v
	}
	return out, sc.Err()
}
