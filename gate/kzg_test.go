package gate

import (
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// kzgResults holds c-kzg's context at two precompute levels, told apart
// by their parameter, and go-eth-kzg's, which has no C heap.
func kzgResults() *results.File {
	cheap := func(v float64) *float64 { return &v }
	ctx := func(lib vocab.Lib, param results.Param, goHeap float64, cHeap *float64) results.Row {
		return results.Row{Key: results.Key{Type: vocab.KZGContext, Lib: lib, Repr: vocab.Decoded, Layout: measure.Single, Param: param},
			Measurement: measure.Measurement{N: 1, BytesPerInstance: goHeap, AllocsPerInstance: 1, CHeapBytesPerInstance: cHeap, CHeapUnavailable: map[bool]string{true: "cgo disabled in this build"}[cHeap == nil]}}
	}
	return &results.File{Schema: results.Schema, Instances: []results.Row{
		ctx(vocab.CKZG, "precompute=0", 16, cheap(3<<20)),
		ctx(vocab.CKZG, "precompute=8", 16, cheap(100<<20)),
		ctx(vocab.GoKZG, "", 4<<20, nil),
	}}
}

// TestKZGBudgets: a budget selects a c-kzg level by its parameter and
// bounds the C heap; a case without a C-heap reading is an error, never a
// pass.
func TestKZGBudgets(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		want  []Status
		case0 string
	}{
		{"level selected by param, within", "{type: KZGContext, lib: ckzg, param: precompute=8}\n    max_c_heap_bytes_per_instance: 100MiB", []Status{Pass}, "KZGContext/ckzg/decoded/single/precompute=8"},
		{"level selected by param, over", "{type: KZGContext, param: precompute=8}\n    max_c_heap_bytes_per_instance: 99MiB", []Status{Fail}, "KZGContext/ckzg/decoded/single/precompute=8"},
		{"every level", "{type: KZGContext, lib: ckzg}\n    max_c_heap_bytes_per_instance: 4MiB", []Status{Pass, Fail}, "KZGContext/ckzg/decoded/single/precompute=0"},
		{"no C heap reading", "{type: KZGContext, lib: gokzg}\n    max_c_heap_bytes_per_instance: 1GiB", []Status{Error}, "KZGContext/gokzg/decoded/single"},
		{"Go heap of the handle", "{type: KZGContext, lib: ckzg, param: [precompute=0, precompute=8]}\n    max_bytes_per_instance: 16B", []Status{Pass, Pass}, "KZGContext/ckzg/decoded/single/precompute=0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := checkBudget(t, "select: "+tt.src, kzgResults())
			var got []Status
			for _, o := range rep.Outcomes {
				got = append(got, o.Status)
			}
			if len(rep.Problems) > 0 || len(got) != len(tt.want) || rep.Outcomes[0].Case != tt.case0 {
				t.Fatalf("got outcomes %+v, problems %v; want statuses %v, the first for %s", rep.Outcomes, rep.Problems, tt.want, tt.case0)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("outcome %d (%s): got %s, want %s (%s)", i, rep.Outcomes[i].Case, got[i], tt.want[i], rep.Outcomes[i].Detail)
				}
			}
			if tt.want[0] == Error && !strings.Contains(rep.Outcomes[0].Detail, "no c_heap_bytes_per_instance: cgo disabled") {
				t.Errorf("got detail %q, want the reason there is no C heap reading", rep.Outcomes[0].Detail)
			}
		})
	}
	t.Run("update writes the C heap", func(t *testing.T) {
		f, err := Parse("kzg.yaml", []byte("version: 1\nbudgets:\n  - select: {type: KZGContext, param: precompute=8}\n    max_c_heap_bytes_per_instance: 1MiB\n"))
		if err != nil {
			t.Fatal(err)
		}
		out, err := Update(f, Check(f, kzgResults(), CheckOptions{}), 1)
		if err != nil || !strings.Contains(string(out), "max_c_heap_bytes_per_instance: 104857600B") {
			t.Errorf("got %q, %v; want the limit rewritten to the measured 100 MiB, exactly", out, err)
		}
	})
	t.Run("bad param", func(t *testing.T) {
		_, err := Parse("kzg.yaml", []byte("version: 1\nbudgets:\n  - select: {param: precompute}\n    max_c_heap_bytes_per_instance: 1MiB\n"))
		if err == nil || !strings.Contains(err.Error(), `kzg.yaml:3: select: parameter "precompute" is not name=value`) {
			t.Errorf("got %v, want the parameter refused with its line", err)
		}
	})
}
