package gate

import (
	"errors"
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// opMemoryResults holds two timed operations: one whose allocations
// depend on the cores (measured at GOMAXPROCS 2), one whose do not.
func opMemoryResults() *results.File {
	row := func(lib vocab.Lib, bytes, allocs float64, cores bool) results.ThroughputRow {
		return results.ThroughputRow{Key: results.Key{Type: vocab.Signature, Lib: lib, Repr: vocab.Affine, Op: vocab.Verify, Batch: 1, Scheme: vocab.MinPk},
			Timing: measure.Timing{Samples: 4, NsPerOpMedian: 1, BytesPerOp: bytes, AllocsPerOp: allocs},
			OpCost: results.OpCost{CoresDependent: cores}}
	}
	return &results.File{Schema: results.Schema, Env: measure.Env{GOMAXPROCS: 2},
		Agreement:  &results.Agreement{OK: true},
		Throughput: []results.ThroughputRow{row(vocab.Blst, 4545.5, 12, true), row(vocab.Gnark, 7024, 57, false)}}
}

func TestCheckOpMemory(t *testing.T) {
	tests := []struct {
		name, budget string
		want         []Status
		detail       string
	}{
		{"exact pass", "select: {lib: gnark, op: verify}\n    max_bytes_per_op: 7024\n    max_allocs_per_op: 57", []Status{Pass, Pass}, ""},
		{"one byte over fails", "select: {lib: gnark, op: verify}\n    max_bytes_per_op: 7023", []Status{Fail}, ""},
		{"one alloc over fails", "select: {lib: gnark, op: verify}\n    max_allocs_per_op: 56", []Status{Fail}, ""},
		{"cores: no gomaxprocs is an error", "select: {lib: blst, op: verify}\n    max_bytes_per_op: 5KiB", []Status{Error}, "say which the budget holds for with gomaxprocs: N"},
		{"cores: another gomaxprocs is an error", "select: {lib: blst, op: verify}\n    max_bytes_per_op: 5KiB\n    gomaxprocs: 4", []Status{Error}, "measured at GOMAXPROCS 2, the budget holds for gomaxprocs 4"},
		{"cores: the recorded gomaxprocs passes", "select: {lib: blst, op: verify}\n    max_bytes_per_op: 4545.5\n    gomaxprocs: 2", []Status{Pass}, ""},
		{"cores: the recorded gomaxprocs fails", "select: {lib: blst, op: verify}\n    max_allocs_per_op: 11\n    gomaxprocs: 2", []Status{Fail}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := checkBudget(t, tt.budget, opMemoryResults())
			if len(rep.Problems) > 0 || len(rep.Outcomes) != len(tt.want) {
				t.Fatalf("got outcomes %+v, problems %v; want %v", rep.Outcomes, rep.Problems, tt.want)
			}
			for i, w := range tt.want {
				if o := rep.Outcomes[i]; o.Status != w || !strings.Contains(o.Detail, tt.detail) {
					t.Errorf("outcome %d: got %s (%q), want %s with %q", i, o.Status, o.Detail, w, tt.detail)
				}
			}
		})
	}
}

func TestCheckOpMemoryFailsClosed(t *testing.T) {
	f, err := Parse("b.yaml", []byte("version: 1\nbudgets:\n  - select: {op: verify}\n    max_bytes_per_op: 8KiB\n"))
	if err != nil {
		t.Fatal(err)
	}
	none := opMemoryResults()
	none.Throughput = nil
	disagreed := opMemoryResults()
	disagreed.Agreement.OK = false
	failed := opMemoryResults()
	failed.Throughput = failed.Throughput[1:]
	failed.Throughput[0].Error = "boom"
	for _, tt := range []struct {
		name   string
		rs     *results.File
		detail string
	}{
		{"no operation rows", none, "no operation was measured"},
		{"libraries disagreed", disagreed, "agreement"},
		{"failed row", failed, "failed to measure"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep := Check(f, tt.rs, CheckOptions{})
			if rep.OK() || len(rep.Outcomes) != 1 || rep.Outcomes[0].Status != Error || !strings.Contains(rep.Outcomes[0].Detail, tt.detail) {
				t.Errorf("got OK %v, outcomes %+v; want one error with %q", rep.OK(), rep.Outcomes, tt.detail)
			}
		})
	}
}

func TestUpdateOpMemory(t *testing.T) {
	src := "version: 1\nbudgets:\n  - select: {lib: gnark, op: verify}\n    max_bytes_per_op: 6KiB\n    max_allocs_per_op: 50\n"
	f, err := Parse("b.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out, err := Update(f, Check(f, opMemoryResults(), CheckOptions{}), 1.2)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse("b.yaml", out)
	if err != nil {
		t.Fatal(err)
	}
	got := []float64{back.Budgets[0].Limits[0].Value, back.Budgets[0].Limits[1].Value}
	if got[0] != 7024 || got[1] != 57 {
		t.Errorf("updated limits: got %v, want the measured 7024 B and 57 allocations exactly (no headroom)", got)
	}
}

// TestParseOpMemoryRefuses: each budget (the third line of its file) is
// refused with the problem at its line.
func TestParseOpMemoryRefuses(t *testing.T) {
	for _, tt := range []struct{ name, budget, want string }{
		{"scheme selected", "max_bytes_per_op: 1KiB\n    select: {op: verify, scheme: min-sig}", "b.yaml:4: max_bytes_per_op bounds operations, which have no layout or scheme"},
		{"with an instance limit", "select: {op: verify}\n    max_allocs_per_op: 3\n    max_bytes_per_instance: 1", "b.yaml:3: op selects operations, but max_bytes_per_instance bounds instances"},
		{"negative count", "select: {op: verify}\n    max_allocs_per_op: -1", `b.yaml:4: max_allocs_per_op: count "-1": must be a finite number >= 0`},
		{"gomaxprocs not a number", "select: {op: verify}\n    max_bytes_per_op: 1KiB\n    gomaxprocs: two", `b.yaml:5: gomaxprocs must be a whole number of at least 1, got "two"`},
		{"gomaxprocs without an op memory limit", "select: {op: verify}\n    max_ns_per_op: 1ms\n    gomaxprocs: 2", "b.yaml:3: gomaxprocs ties max_bytes_per_op and max_allocs_per_op to a number of cores, and this budget has neither"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("b.yaml", []byte("version: 1\nbudgets:\n  - "+tt.budget+"\n"))
			if err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an invalid file with %q", err, tt.want)
			}
		})
	}
}

// checkBudget checks rs against a budgets file of one budget, the YAML of
// its list item, which must parse.
func checkBudget(t *testing.T, budget string, rs *results.File) *Report {
	t.Helper()
	f, err := Parse("b.yaml", []byte("version: 1\nbudgets:\n  - "+budget+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	return Check(f, rs, CheckOptions{})
}
