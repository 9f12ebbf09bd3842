package memprof

import (
	"sync"
	"testing"
)

// MeasureInstances measures c in this process (see Measure) for a test, and
// fails the test with the error when the case cannot be measured:
//
//	r := memprof.MeasureInstances(t, memprof.Case{Name: "MyPubKey", New: func(i int) any {
//		return mypkg.FromBytes(vectors[i%len(vectors)])
//	}}, memprof.N(100_000))
//	if r.BytesPerInstance > 120 {
//		t.Fatalf("MyPubKey keeps %.2f B per instance, budget 120", r.BytesPerInstance)
//	}
func MeasureInstances(tb testing.TB, c Case, opts ...Option) *Result {
	tb.Helper()
	r, err := Measure(c, opts...)
	if err != nil {
		tb.Fatalf("memprof: %v", err)
	}
	return r
}

// reported caches one measurement per benchmark name: the testing package
// calls a benchmark function several times with growing b.N, and the
// measurement does not depend on b.N.
var reported sync.Map // benchmark name -> *Result

// ReportInstances measures c once per benchmark and reports
// "B/instance" and "allocs/instance" with b.ReportMetric, so that
// `go test -bench` output goes straight into benchstat. The timed loop
// constructs one instance per iteration, so ns/op, B/op and allocs/op are
// the constructor's own cost. It returns the measurement.
func ReportInstances(b *testing.B, c Case, opts ...Option) *Result {
	b.Helper()
	var r *Result
	if v, ok := reported.Load(b.Name()); ok {
		r = v.(*Result)
	} else {
		var err error
		if r, err = Measure(c, opts...); err != nil {
			b.Fatalf("memprof: %v", err)
		}
		reported.Store(b.Name(), r)
	}
	b.ReportAllocs()
	if c.New != nil {
		i := 0
		for b.Loop() {
			sink = c.New(i)
			i++
		}
		sink = nil
	}
	b.ReportMetric(r.BytesPerInstance, "B/instance")
	b.ReportMetric(r.AllocsPerInstance, "allocs/instance")
	return r
}

// sink keeps benchmarked instances from being optimised away.
var sink any
