package render

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/memprof/memprof/model"
)

// BenchUnits are the units of the instances lines, with their metadata:
// the figures are exact (a repeated run does not add confidence), and
// lower is better.
var BenchUnits = []string{"B/instance", "allocs/instance"}

// Bench writes rs in the Go benchmark format, so that benchstat can compare
// two runs:
//
//   - configuration lines: goos, goarch, cpu, go, gomaxprocs, cgo and the
//     version of each measured library's module (its module path as key);
//   - one line per measured case, named
//     BenchmarkInstances/type=T/lib=L/repr=R/layout=Y[/scheme=min-sig],
//     with its N as the iteration count and the units B/instance and
//     allocs/instance;
//   - one line per timed operation, named
//     BenchmarkThroughput/type=T/lib=L/repr=R/op=O[/batch=B], with the
//     number of samples as the iteration count and the units ns/op (the
//     median), cpu-ns/op, B/op and allocs/op.
//
// The result lines are written with benchfmt.Writer. The two unit metadata
// lines ("Unit B/instance assume=exact better=lower") are written first
// (when there are instance lines),
// each with both keys on one line, which benchfmt.Writer cannot do (it
// writes one key per line); benchfmt.Reader reads them back as the same
// metadata. Failed cases and unavailable combinations have no line: the
// format has no way to say "not measured".
func Bench(w io.Writer, rs *model.Results) error {
	if slices.ContainsFunc(rs.Instances, func(r model.Result) bool { return r.Error == "" }) {
		for _, u := range BenchUnits {
			if _, err := fmt.Fprintf(w, "Unit %s assume=exact better=lower\n", u); err != nil {
				return err
			}
		}
	}
	config := benchConfig(rs.Env)
	bw := benchfmt.NewWriter(w)
	instances := append([]model.Result(nil), rs.Instances...)
	SortInstances(instances)
	for _, r := range instances {
		if r.Error != "" {
			continue
		}
		res := &benchfmt.Result{
			Config: config,
			Name:   benchfmt.Name("Instances/" + r.Key.BenchName()),
			Iters:  r.N,
			Values: []benchfmt.Value{
				{Value: r.BytesPerInstance, Unit: "B/instance"},
				{Value: r.AllocsPerInstance, Unit: "allocs/instance"},
			},
		}
		if err := bw.Write(res); err != nil {
			return err
		}
	}
	for _, t := range SortedThroughput(rs.Throughput) {
		if t.Error != "" {
			continue
		}
		res := &benchfmt.Result{
			Config: config,
			Name:   benchfmt.Name("Throughput/" + t.Key.BenchName()),
			Iters:  max(t.Samples, 1),
			Values: []benchfmt.Value{
				{Value: t.NsPerOpMedian, Unit: "ns/op"},
				{Value: t.CPUNsPerOpMedian, Unit: "cpu-ns/op"},
				{Value: t.BytesPerOp, Unit: "B/op"},
				{Value: t.AllocsPerOp, Unit: "allocs/op"},
			},
		}
		if err := bw.Write(res); err != nil {
			return err
		}
	}
	return nil
}

// benchConfig returns the file configuration of env, in a fixed order.
func benchConfig(env model.Env) []benchfmt.Config {
	var cfg []benchfmt.Config
	add := func(k, v string) {
		if v = strings.TrimSpace(v); v != "" {
			cfg = append(cfg, benchfmt.Config{Key: k, Value: []byte(v), File: true})
		}
	}
	add("goos", env.GOOS)
	add("goarch", env.GOARCH)
	add("cpu", env.CPU)
	add("go", env.GoVersion)
	if env.GOMAXPROCS > 0 {
		add("gomaxprocs", strconv.Itoa(env.GOMAXPROCS))
	}
	add("cgo", strconv.FormatBool(env.Cgo))
	mods := make([]string, 0, len(env.Modules))
	for m := range env.Modules {
		mods = append(mods, m)
	}
	slices.Sort(mods)
	for _, m := range mods {
		// A config key starts with a lower-case letter and holds no space
		// or upper-case letter; module paths are lower case.
		add(strings.ToLower(m), env.Modules[m])
	}
	return cfg
}

// benchName makes s usable as a benchmark name: no white space.
func benchName(s string) string {
	return strings.Join(strings.Fields(s), "_")
}
