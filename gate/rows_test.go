package gate

import (
	"testing"

	"github.com/memprof/memprof/results"
)

// TestCompareAbsentOrFailed: a case that one side lacks or failed to
// measure is judged the same way for instances and for operations (one
// helper serves both): only in head is new, only in base is missing
// (failing unless allowed), failed in head fails, failed only in base
// passes with head's figure; a failed row has no figure to show.
func TestCompareAbsentOrFailed(t *testing.T) {
	const failure = "child exited\nsecond line"
	// The two kinds of row, each by one case of the fixtures: how to drop
	// it from a side, make it fail, and read its figure.
	kinds := []struct {
		name, cas, metric string
		drop              func(*results.File)
		fail              func(*results.File)
		value             func(*results.File) float64
	}{
		{"instances", "Signature/blst/affine/pointer/min-pk", "bytes/instance",
			func(rs *results.File) { rs.Instances = append(rs.Instances[:1:1], rs.Instances[2:]...) },
			func(rs *results.File) { rs.Instances[1].Error = failure },
			func(rs *results.File) float64 { return rs.Instances[1].BytesPerInstance }},
		{"throughput", "Signature/blst/affine op=verify", "time/op",
			func(rs *results.File) { rs.Throughput = rs.Throughput[1:] },
			func(rs *results.File) { rs.Throughput[0].Error = failure },
			func(rs *results.File) float64 { return rs.Throughput[0].NsPerOpMedian }},
	}
	type side int
	const (
		base side = iota
		head
	)
	tests := []struct {
		name         string
		drop, fail   []side
		allowMissing bool
		change       Change
		fails        bool
		note         string
		wantBase     bool // the row holds base's figure
		wantHead     bool // and head's
	}{
		{"only in head", []side{base}, nil, false, New, false, "", false, true},
		{"only in head, failed there", []side{base}, []side{head}, false, Unmeasured, true, "head failed to measure: child exited", false, false},
		{"only in base", []side{head}, nil, false, Missing, true, "", true, false},
		{"only in base, allowed", []side{head}, nil, true, Missing, false, "", true, false},
		{"failed in head", nil, []side{head}, false, Unmeasured, true, "head failed to measure: child exited", false, false},
		{"failed in both", nil, []side{base, head}, false, Unmeasured, true, "head failed to measure: child exited", false, false},
		{"failed only in base", nil, []side{base}, false, Unmeasured, false, "base failed to measure: child exited", false, true},
	}
	for _, k := range kinds {
		for _, tt := range tests {
			t.Run(k.name+"/"+tt.name, func(t *testing.T) {
				rs := [2]*results.File{fixtureBase(), fixtureHead()}
				want := [2]float64{k.value(rs[base]), k.value(rs[head])}
				for _, s := range tt.fail {
					k.fail(rs[s])
				}
				for _, s := range tt.drop {
					k.drop(rs[s])
				}
				c, err := Compare(rs[base], rs[head], CompareOptions{AllowMissing: tt.allowMissing, Tolerance: 0.05})
				if err != nil {
					t.Fatalf("Compare: got %v, want a comparison", err)
				}
				r, ok := findRow(c, k.cas, k.metric)
				if !ok {
					t.Fatalf("no row %s %s in %+v", k.cas, k.metric, c.Rows)
				}
				if r.Change != tt.change || r.Fails != tt.fails || r.Note != tt.note {
					t.Errorf("got %s, fails %v, note %q; want %s, fails %v, note %q", r.Change, r.Fails, r.Note, tt.change, tt.fails, tt.note)
				}
				wantBase, wantHead := 0.0, 0.0
				if tt.wantBase {
					wantBase = want[base]
				}
				if tt.wantHead {
					wantHead = want[head]
				}
				if r.Base != wantBase || r.Head != wantHead {
					t.Errorf("got base %v, head %v; want %v, %v", r.Base, r.Head, wantBase, wantHead)
				}
			})
		}
	}
}
