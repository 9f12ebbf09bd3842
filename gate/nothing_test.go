package gate

import (
	"strings"
	"testing"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// TestLackingAdvice: a selected case the results lack names what to do
// first (measure it with the flag that does, or narrow the budget to what
// was measured) and optional: true last, with what it excuses.
func TestLackingAdvice(t *testing.T) {
	rs := readFixture(t, checkResults)
	tests := []struct {
		name, budget string
		want         []string // in this order in the ERROR's detail
	}{
		{"a scheme a run does not measure by default", "{type: Signature, lib: blst, repr: affine, layout: pointer, scheme: all}",
			[]string{"memprof instances --scheme all", "scheme: min-pk", "optional: true, which excuses"}},
		{"a layout a run does not measure by default", "{type: Signature, lib: blst, repr: affine, layout: all}",
			[]string{"memprof instances --layout all", "layout: pointer", "optional: true, which excuses"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse("b.yaml", []byte("version: 1\nbudgets:\n  - select: "+tt.budget+"\n    max_bytes_per_instance: 192B\n"))
			if err != nil {
				t.Fatal(err)
			}
			rep := Check(f, rs, CheckOptions{Registry: checkRegistry()})
			var errs []Outcome
			for _, o := range rep.Outcomes {
				if o.Status == Error {
					errs = append(errs, o)
				}
			}
			if len(errs) != 1 {
				t.Fatalf("got %d errors (%+v), want 1", len(errs), rep.Outcomes)
			}
			at := 0
			for _, w := range tt.want {
				i := strings.Index(errs[0].Detail[at:], w)
				if i < 0 {
					t.Fatalf("detail %q: want %q after byte %d", errs[0].Detail, w, at)
				}
				at += i + len(w)
			}
		})
	}
}

// TestNothingChecked: a budget none of whose cases was checked is an
// Error, optional or not, and a report that checked nothing is not ok.
func TestNothingChecked(t *testing.T) {
	rs := readFixture(t, checkResults)
	other := &results.File{Schema: results.Schema, Env: rs.Env,
		Instances: []results.Row{instance("PublicKey", "blst", 96, 1)}}
	tests := []struct {
		name    string
		budgets string
		rs      *results.File
		want    []Status
		ok      bool
	}{
		{"optional, the results hold none of its cases", "  - select: {type: Signature, lib: blst}\n    max_bytes_per_instance: 192B\n    optional: true\n",
			other, []Status{Error}, false},
		{"optional, and another budget checks a case", "  - select: {type: Signature, lib: blst}\n    max_bytes_per_instance: 192B\n    optional: true\n  - select: {type: PublicKey}\n    max_bytes_per_instance: 96B\n",
			other, []Status{Error, Pass}, false},
		{"optional, one of its cases checked", "  - select: {type: Signature, lib: blst, layout: all}\n    max_bytes_per_instance: 192B\n    optional: true\n",
			rs, []Status{Pass, Skip}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse("b.yaml", []byte("version: 1\nbudgets:\n"+tt.budgets))
			if err != nil {
				t.Fatal(err)
			}
			rep := Check(f, tt.rs, CheckOptions{Registry: checkRegistry()})
			var got []Status
			for _, o := range rep.Outcomes {
				got = append(got, o.Status)
				if o.Status == Error && !strings.Contains(o.Detail, "optional: true excuses some cases, never all") {
					t.Errorf("detail %q: want it to say optional excuses some cases, never all", o.Detail)
				}
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("outcome %d: got %v, want %v", i, got[i], tt.want[i])
				}
			}
			if rep.OK() != tt.ok {
				t.Errorf("OK: got %v, want %v", rep.OK(), tt.ok)
			}
		})
	}
	empty := &File{Path: "b.yaml"}
	if rep := Check(empty, rs, CheckOptions{}); rep.OK() || rep.Checked() != 0 {
		t.Errorf("no budget: OK %v, %d checked; want not ok, 0 checked", rep.OK(), rep.Checked())
	}
}

// TestNConflicts: two budgets naming different n for one case are a
// problem of the file (no results can hold both), whether the case is in
// the registry or only in the results.
func TestNConflicts(t *testing.T) {
	rs := readFixture(t, checkResults)
	f, err := Parse("b.yaml", []byte(`version: 1
budgets:
  - select: {type: Signature, lib: blst}
    max_bytes_per_instance: 192B
    n: 1000
  - select: {type: Signature}
    max_allocs_per_instance: 1
    n: 2000
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, registry := range [][]RegistryCase{nil, checkRegistry()} {
		rep := Check(f, rs, CheckOptions{Registry: registry})
		want := "b.yaml:6: n: 2000, but the budget at line 3 names n: 1000 for Signature/blst/affine/pointer/min-pk too: a case is measured at one N"
		if len(rep.Problems) != 1 || rep.Problems[0].Error() != want {
			t.Errorf("registry %v: problems %v, want one: %s", registry != nil, rep.Problems, want)
		}
	}
}

// TestComparePairsNormalized: a row without a scheme is of its type's
// default scheme, as a selector without one selects it: compare pairs it
// with the row that names min-pk (one case, not a missing and a new one),
// and names it with its scheme.
func TestComparePairsNormalized(t *testing.T) {
	base := &results.File{Schema: results.Schema, Env: fixtureEnv, Instances: []results.Row{instance("Signature", "blst", 192, 1)}}
	head := &results.File{Schema: results.Schema, Env: fixtureEnv, Instances: []results.Row{instance("Signature", "blst", 192, 1)}}
	head.Instances[0].Scheme = vocab.MinPk
	c, err := Compare(base, head, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range c.Rows {
		if r.Case != "Signature/blst/affine/pointer/min-pk" || r.Change != Unchanged {
			t.Errorf("row %s %s: %v, want Signature/blst/affine/pointer/min-pk unchanged", r.Case, r.Metric, r.Change)
		}
	}
	if len(c.Rows) == 0 {
		t.Error("no row")
	}
}
