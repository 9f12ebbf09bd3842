package report

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/units"
)

func writeEnv(mw *render.MarkdownWriter, env measure.Env) {
	t := render.MarkdownTable{Header: []string{"setting", "value"}}
	add := func(k, v string) {
		if v != "" {
			t.Rows = append(t.Rows, []string{k, v})
		}
	}
	add("Go", env.GoVersion)
	add("OS/arch", env.GOOS+"/"+env.GOARCH)
	add("CPU", env.CPU)
	if env.NumCPU > 0 {
		add("CPUs", strconv.Itoa(env.NumCPU))
	}
	if env.GOMAXPROCS > 0 {
		add("GOMAXPROCS", strconv.Itoa(env.GOMAXPROCS))
	}
	add("cgo", map[bool]string{true: "on", false: "off (blst is not measured)"}[env.Cgo])
	add("machine", env.Machine)
	add("commit", env.Commit)
	add("measured", env.Time)
	add("garbage collector", string(env.GC))
	if env.ScanRule != "" {
		add("GC scan rule", string(env.ScanRule)+" ("+env.ScanRuleBasis+")")
	}
	add("load average", loadText(env))
	add("run time", runText(env))
	var mods []string
	for m := range env.Modules {
		mods = append(mods, m)
	}
	sort.Strings(mods)
	for _, m := range mods {
		add("`"+m+"`", env.Modules[m])
	}
	mw.Table(t)
}

func envLine(env measure.Env) string {
	parts := []string{}
	if env.GoVersion != "" {
		parts = append(parts, env.GoVersion)
	}
	if env.GOOS != "" {
		parts = append(parts, env.GOOS+"/"+env.GOARCH)
	}
	if env.CPU != "" {
		parts = append(parts, env.CPU)
	}
	if len(parts) == 0 {
		return ""
	}
	line := "Measured with " + strings.Join(parts, ", ") + "; load average " + loadText(env) + "."
	if busy(env) {
		line += fmt.Sprintf(" The machine had more work than its %d CPUs: wall times include waiting for a CPU, CPU times do not.", env.NumCPU)
	}
	return line
}

// loadText says the run's load averages, "unknown" where the results do
// not record them.
func loadText(env measure.Env) string {
	f := func(v *float64) string {
		if v == nil {
			return "unknown"
		}
		return strconv.FormatFloat(*v, 'f', 2, 64)
	}
	if env.LoadStart == nil && env.LoadEnd == nil {
		return "unknown (not recorded)"
	}
	return f(env.LoadStart) + " at the start, " + f(env.LoadEnd) + " at the end"
}

// runText says the run's CPU and wall-clock time, "unknown" where the
// results do not record them.
func runText(env measure.Env) string {
	switch {
	case env.RunWallSeconds == nil:
		return "unknown (not recorded)"
	case env.RunCPUSeconds == nil:
		return units.FormatNs(*env.RunWallSeconds*1e9) + " wall, CPU time unknown"
	}
	return fmt.Sprintf("%s CPU over %s wall", units.FormatNs(*env.RunCPUSeconds*1e9), units.FormatNs(*env.RunWallSeconds*1e9))
}

// busy reports whether the machine's load at the run's start or end was
// above its CPUs: more threads wanted to run than it could run.
func busy(env measure.Env) bool {
	for _, v := range []*float64{env.LoadStart, env.LoadEnd} {
		if v != nil && env.NumCPU > 0 && *v > float64(env.NumCPU) {
			return true
		}
	}
	return false
}
