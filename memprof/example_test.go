package memprof_test

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/memprof/memprof/memprof"
)

// PubKey stands for a user's own wrapper type: 48 compressed bytes and a
// decoded point behind a pointer, as some clients keep them.
type PubKey struct {
	compressed [48]byte
	point      *[96]byte
}

// FromBytes is the user's constructor.
func FromBytes(b []byte) *PubKey {
	point := new([96]byte)
	k := &PubKey{point: point}
	copy(k.compressed[:], b)
	copy(k.point[:], b)
	return k
}

var vectors = [][]byte{[]byte("first key"), []byte("second key"), []byte("third key")}

// Measure a type of your own: the same engine that measures the built-in
// suites, in your own test. In a test, memprof.MeasureInstances(t, c, ...)
// does the same and fails the test on error.
func ExampleMeasure() {
	c := memprof.Case{Name: "MyPubKey", New: func(i int) any {
		return FromBytes(vectors[i%len(vectors)])
	}}
	r, err := memprof.Measure(c, memprof.N(10_000))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %.0f allocations per instance (the struct and its point)\n", c.Name, r.AllocsPerInstance)
	fmt.Println("sites:", len(r.Sites))
	// Output:
	// MyPubKey: 2 allocations per instance (the struct and its point)
	// sites: 2
}

// BenchmarkMyPubKey shows memprof in a benchmark: `go test -bench .`
// reports B/instance and allocs/instance beside ns/op, ready for benchstat.
func BenchmarkMyPubKey(b *testing.B) {
	c := memprof.Case{Name: "MyPubKey", New: func(i int) any {
		return FromBytes(vectors[i%len(vectors)])
	}}
	memprof.ReportInstances(b, c, memprof.N(10_000))
}

// TestMeasureInstancesUserType is the user-facing form in a test.
func TestMeasureInstancesUserType(t *testing.T) {
	c := memprof.Case{Name: "MyPubKey", New: func(i int) any { return FromBytes(vectors[i%len(vectors)]) }}
	r := memprof.MeasureInstances(t, c, memprof.N(5_000))
	// The truth by construction: a PubKey and a [96]byte point, each in
	// its own object, in the runtime's size class for its size.
	want := map[float64]bool{memprof.SizeClass(t, unsafe.Sizeof(PubKey{})): true, memprof.SizeClass(t, unsafe.Sizeof([96]byte{})): true}
	var sum float64
	for _, s := range r.Sites {
		if s.AllocsPerInstance != 1 {
			t.Errorf("site %s:%d: %v allocs per instance, want 1", s.Function, s.Line, s.AllocsPerInstance)
		}
		if !want[s.BytesPerInstance] {
			t.Errorf("site %s:%d: %v B per instance, want one of the size classes %v", s.Function, s.Line, s.BytesPerInstance, want)
		}
		sum += s.BytesPerInstance
	}
	if sum != r.BytesPerInstance || r.AllocsPerInstance != 2 || len(r.Sites) != 2 {
		t.Errorf("got %v B in %v allocs at %d sites, sites sum %v; want 2 sites, 2 allocs, summing to the total", r.BytesPerInstance, r.AllocsPerInstance, len(r.Sites), sum)
	}
}
