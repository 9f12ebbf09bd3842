package report

import (
	"sort"
	"strconv"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/measure"
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
	return "Measured with " + strings.Join(parts, ", ") + "."
}
