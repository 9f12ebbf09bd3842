package results

import (
	"strings"
	"testing"
	"time"

	"github.com/memprof/memprof/measure"
)

// TestReadResultsRefusesItersAndTime: samples_iters must give one
// positive count of calls per sample, env.time must be an RFC 3339
// time, and the run's load averages and times not negative; files
// without them (written before them) are read.
func TestReadResultsRefusesItersAndTime(t *testing.T) {
	verify := "throughput[0] (Signature/blst/affine op=verify): "
	tests := []struct {
		name string
		edit func(d doc)
		want string // "" for accepted
	}{
		{"no samples_iters (an older file)", func(d doc) {}, ""},
		{"samples_iters one per sample", func(d doc) { d.row("throughput", 0)["samples_iters"] = []any{10, 9, 9, 8, 8} }, ""},
		{"samples_iters too short", func(d doc) { d.row("throughput", 0)["samples_iters"] = []any{10, 9} },
			verify + "samples_iters holds 2 counts but samples_ns 5 samples: want one count of calls per sample"},
		{"samples_iters zero", func(d doc) { d.row("throughput", 0)["samples_iters"] = []any{10, 9, 0, 8, 8} },
			verify + "samples_iters[2] is 0, want a positive number of calls"},
		{"samples_iters negative", func(d doc) { d.row("throughput", 0)["samples_iters"] = []any{10, 9, 9, 8, -8} },
			verify + "samples_iters[4] is -8, want a positive number of calls"},
		{"env time", func(d doc) { d["env"].(map[string]any)["time"] = "2026-11-29T10:04:05Z" }, ""},
		{"env time not RFC 3339", func(d doc) { d["env"].(map[string]any)["time"] = "29/11/2026" },
			`env: time is "29/11/2026", want an RFC 3339 time such as 2026-11-29T10:04:05Z`},
		{"env load and run time", func(d doc) {
			e := d["env"].(map[string]any)
			e["load_average_start"], e["load_average_end"], e["run_wall_s"], e["run_cpu_s"] = 0.0, 12.5, 61.2, 3.4
		}, ""},
		{"env load negative", func(d doc) { d["env"].(map[string]any)["load_average_end"] = -1 },
			"env: load_average_end is -1, want a non-negative number"},
		{"env run CPU time negative", func(d doc) { d["env"].(map[string]any)["run_cpu_s"] = -0.5 },
			"env: run_cpu_s is -0.5, want a non-negative number"},
		{"env machine and commit", func(d doc) {
			d["env"].(map[string]any)["machine"] = "arm64-runner"
			d["env"].(map[string]any)["commit"] = "44550ef"
		}, ""},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, _ := writeEdited(t, dir, tt.name, tt.edit)
			_, err := ReadFile(path)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("got %v, want the file accepted", err)
			case tt.want != "" && (err == nil || err.Error() != path+": "+tt.want):
				t.Errorf("got %v, want %s: %s", err, path, tt.want)
			}
		})
	}
}

func TestEnvMeasured(t *testing.T) {
	want := time.Date(2026, 11, 29, 10, 4, 5, 0, time.UTC)
	tests := []struct {
		env  measure.Env
		ok   bool
		want time.Time
	}{
		{measure.Env{Time: want.Format(time.RFC3339)}, true, want},
		{measure.Env{}, false, time.Time{}},
		{measure.Env{Time: "yesterday"}, false, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(strings.ReplaceAll(tt.env.Time, "/", "-"), func(t *testing.T) {
			got, ok := tt.env.Measured()
			if ok != tt.ok || (ok && !got.Equal(tt.want)) {
				t.Errorf("Measured() got %v, %v; want %v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}
