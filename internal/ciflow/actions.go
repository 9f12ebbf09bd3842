package ciflow

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// pinned is the form of a pinned action reference: a full version or a
// commit.
var pinned = regexp.MustCompile(`@(v\d+\.\d+\.\d+|[0-9a-f]{40})$`)

// action runs the stand-in of a uses: step.
func (r *Runner) action(ctx context.Context, run *Run, c *Context, s *Step, env map[string]string, dir string, out io.Writer) (bool, error) {
	if !pinned.MatchString(s.Uses) {
		return false, fmt.Errorf("uses: %s is not pinned to a version (vX.Y.Z) or a commit", s.Uses)
	}
	name, _, _ := strings.Cut(s.Uses, "@")
	with := map[string]string{}
	for k, v := range s.With {
		str, err := c.Interpolate(toString(v))
		if err != nil {
			return false, fmt.Errorf("with: %s: %w", k, err)
		}
		with[k] = str
	}
	switch name {
	case "actions/checkout":
		cmd := exec.CommandContext(ctx, "git", "clone", "-q", "--no-checkout", r.Repo, dir)
		if b, err := cmd.CombinedOutput(); err != nil {
			return false, fmt.Errorf("checkout: %v: %s", err, b)
		}
		cmd = exec.CommandContext(ctx, "git", "-C", dir, "checkout", "-q", "--detach", run.Event.SHA)
		if b, err := cmd.CombinedOutput(); err != nil {
			return false, fmt.Errorf("checkout: %v: %s", err, b)
		}
		fmt.Fprintf(out, "checkout (stand-in): %s at %s\n", r.Repository, short(run.Event.SHA))
		return true, nil
	case "actions/setup-go":
		v := with["go-version-file"]
		if _, err := os.Stat(filepath.Join(dir, v)); v == "" || err != nil {
			return false, fmt.Errorf("setup-go: go-version-file %q: not in the workspace", v)
		}
		fmt.Fprintf(out, "setup-go (stand-in): the machine's go, for %s\n", v)
		return true, nil
	case "actions/upload-artifact":
		return r.upload(run, with, dir, out)
	case "actions/download-artifact":
		return r.download(run, with, dir, out)
	case "benchmark-action/github-action-benchmark":
		return r.benchmark(with, dir, out)
	case "actions/github-script":
		// The script only posts comment.md, which a run: step wrote.
		if !strings.Contains(with["script"], "comment.md") {
			return false, fmt.Errorf("github-script: the stand-in posts comment.md only, and this script does not read it")
		}
		b, err := os.ReadFile(filepath.Join(dir, "comment.md"))
		if err != nil {
			fmt.Fprintf(out, "Error: %v\n", err)
			return false, nil
		}
		fmt.Fprintf(out, "github-script (stand-in): posts comment.md (%d bytes) on pull request #%s\n", len(b), run.Event.PullRequest["number"])
		return true, nil
	}
	return false, fmt.Errorf("uses: %s: no stand-in for this action", s.Uses)
}

func short(sha string) string { return sha[:min(len(sha), 12)] }

// upload copies the artifact's paths into the run's artifacts.
func (r *Runner) upload(run *Run, with map[string]string, dir string, out io.Writer) (bool, error) {
	name := with["name"]
	if name == "" || strings.ContainsAny(name, "/\\") {
		return false, fmt.Errorf("upload-artifact: name %q", name)
	}
	dst := filepath.Join(run.Dir, name)
	var kept []string
	for _, p := range strings.Split(with["path"], "\n") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		src := filepath.Join(dir, p)
		if _, err := os.Stat(src); err != nil {
			continue
		}
		if err := copyTree(src, filepath.Join(dst, p)); err != nil {
			return false, err
		}
		kept = append(kept, p)
	}
	if len(kept) == 0 {
		fmt.Fprintf(out, "upload-artifact (stand-in): no files for %s\n", name)
		return with["if-no-files-found"] != "error", nil
	}
	fmt.Fprintf(out, "upload-artifact (stand-in): %s: %s\n", name, strings.Join(kept, ", "))
	return true, nil
}

// download copies the run's artifacts whose names match the pattern,
// each into a directory of its name.
func (r *Runner) download(run *Run, with map[string]string, dir string, out io.Writer) (bool, error) {
	pattern := with["pattern"]
	if pattern == "" {
		return false, fmt.Errorf("download-artifact: the stand-in takes pattern: only")
	}
	ents, err := os.ReadDir(run.Dir)
	if err != nil {
		return false, err
	}
	var got []string
	for _, e := range ents {
		if ok, _ := path.Match(pattern, e.Name()); ok {
			if err := copyTree(filepath.Join(run.Dir, e.Name()), filepath.Join(dir, e.Name())); err != nil {
				return false, err
			}
			got = append(got, e.Name())
		}
	}
	fmt.Fprintf(out, "download-artifact (stand-in): %s\n", strings.Join(got, ", "))
	return len(got) > 0, nil
}

func copyTree(src, dst string) error {
	return filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
}

// BenchEntry is an entry of github-action-benchmark's
// customSmallerIsBetter input.
type BenchEntry struct {
	Name  string  `json:"name"`
	Unit  string  `json:"unit"`
	Value float64 `json:"value"`
	Range string  `json:"range,omitempty"`
	Extra string  `json:"extra,omitempty"`
}

// Alert is an entry worse than the previous run's beyond the threshold.
type Alert struct {
	Name        string
	Prev, Value float64
	Ratio       float64
}

// BenchAlerts applies github-action-benchmark's alert rule for a
// smaller-is-better series: an entry alerts when its value over the
// previous value of the same name exceeds threshold (1 = 100%).
func BenchAlerts(prev, cur []BenchEntry, threshold float64) []Alert {
	was := map[string]float64{}
	for _, e := range prev {
		was[e.Name] = e.Value
	}
	var out []Alert
	for _, e := range cur {
		p, ok := was[e.Name]
		if !ok {
			continue
		}
		if ratio := e.Value / p; ratio > threshold && !math.IsNaN(ratio) {
			out = append(out, Alert{e.Name, p, e.Value, ratio})
		}
	}
	return out
}

// benchmark stands in for github-action-benchmark: it reads the entries,
// alerts as the action does against the series' previous entries, fails
// when fail-on-alert asks for it, and keeps the entries (auto-push).
func (r *Runner) benchmark(with map[string]string, dir string, out io.Writer) (bool, error) {
	if with["tool"] != "customSmallerIsBetter" {
		return false, fmt.Errorf("github-action-benchmark: the stand-in reads tool customSmallerIsBetter only, not %q", with["tool"])
	}
	b, err := os.ReadFile(filepath.Join(dir, with["output-file-path"]))
	if err != nil {
		fmt.Fprintf(out, "Error: %v\n", err)
		return false, nil
	}
	var cur []BenchEntry
	if err := json.Unmarshal(b, &cur); err != nil || len(cur) == 0 {
		fmt.Fprintf(out, "Error: %s: not a customSmallerIsBetter array of entries (%v)\n", with["output-file-path"], err)
		return false, nil
	}
	for i, e := range cur {
		if e.Name == "" || e.Unit == "" {
			fmt.Fprintf(out, "Error: %s: entry %d lacks a name or a unit\n", with["output-file-path"], i)
			return false, nil
		}
	}
	threshold := 2.0 // the action's default, 200%
	if t := with["alert-threshold"]; t != "" {
		pct, err := strconv.ParseFloat(strings.TrimSuffix(t, "%"), 64)
		if err != nil || !strings.HasSuffix(t, "%") {
			return false, fmt.Errorf("github-action-benchmark: alert-threshold %q", t)
		}
		threshold = pct / 100
	}
	series := with["name"]
	prev, had := r.Dashboards[series]
	alerts := BenchAlerts(prev, cur, threshold)
	fmt.Fprintf(out, "github-action-benchmark (stand-in): %q: %d entries", series, len(cur))
	if had {
		fmt.Fprintf(out, ", against the previous run's %d: %d alerts at %s", len(prev), len(alerts), strconv.FormatFloat(threshold*100, 'f', -1, 64)+"%")
	} else {
		fmt.Fprint(out, ", the series' first")
	}
	fmt.Fprintln(out)
	for _, a := range alerts {
		fmt.Fprintf(out, "  alert: %s: %g -> %g (%.2fx)\n", a.Name, a.Prev, a.Value, a.Ratio)
	}
	if r.Dashboards == nil {
		r.Dashboards = map[string][]BenchEntry{}
	}
	if with["auto-push"] == "true" {
		r.Dashboards[series] = cur
	}
	return len(alerts) == 0 || with["fail-on-alert"] != "true", nil
}

// ghStub is the gh command the steps find first on PATH: gh run list
// answers the id or the address of the latest successful run on main
// ($CIFLOW_RUNS/latest.id, latest.url), gh run download copies a run's
// artifact.
const ghStub = `#!/usr/bin/env bash
# gh stand-in (internal/ciflow): the runs of $CIFLOW_RUNS.
set -euo pipefail
case "${1:-} ${2:-}" in
"run list")
  args=" $* "
  for want in "--branch main" "--status success" "--event push"; do
    [[ $args == *" $want "* ]] || { echo "gh stand-in: run list without $want" >&2; exit 1; }
  done
  jq=""
  while [ $# -gt 0 ]; do
    if [ "$1" = --jq ]; then jq=$2; fi
    shift
  done
  case $jq in
    '.[0].databaseId') field=id ;;
    '.[0].url') field=url ;;
    *) echo "gh stand-in: run list --jq '$jq': it answers .[0].databaseId and .[0].url" >&2; exit 1 ;;
  esac
  if [ -f "$CIFLOW_RUNS/latest.$field" ]; then cat "$CIFLOW_RUNS/latest.$field"; fi
  ;;
"run download")
  id=${3:?run id}; shift 3; name=""; dir=.
  while [ $# -gt 0 ]; do
    case $1 in
      --name) name=$2; shift 2 ;;
      --dir) dir=$2; shift 2 ;;
      --repo) shift 2 ;;
      *) echo "gh stand-in: run download: unknown flag $1" >&2; exit 1 ;;
    esac
  done
  src="$CIFLOW_RUNS/$id/$name"
  if [ -z "$name" ] || [ ! -d "$src" ]; then
    echo "no artifact matches \"$name\" in run $id" >&2; exit 1
  fi
  mkdir -p "$dir"; cp -R "$src/." "$dir/"
  ;;
*) echo "gh stand-in: unsupported: gh $*" >&2; exit 1 ;;
esac
`

// stubDir writes the gh stand-in, once.
func (r *Runner) stubDir() (string, error) {
	if r.stubs != "" {
		return r.stubs, nil
	}
	dir := filepath.Join(r.Root, "bin")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "gh"), []byte(ghStub), 0o755); err != nil {
		return "", err
	}
	r.stubs = dir
	return dir, nil
}

// Succeeded records run as the latest successful run on main, whose
// artifacts gh run download serves.
func (r *Runner) Succeeded(run *Run) error {
	dir := filepath.Join(r.Root, "runs")
	if err := os.WriteFile(filepath.Join(dir, "latest.id"), []byte(strconv.Itoa(run.ID)+"\n"), 0o644); err != nil {
		return err
	}
	url := fmt.Sprintf("https://github.com/%s/actions/runs/%d\n", r.Repository, run.ID)
	return os.WriteFile(filepath.Join(dir, "latest.url"), []byte(url), 0o644)
}
