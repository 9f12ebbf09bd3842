//go:build cgo

package blst

import (
	"testing"
	"unsafe"

	blst "github.com/supranational/blst/bindings/go"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/vocab"
)

// TestBatchEntry measures signatures decoded by BatchUncompress: per
// instance, the shared array's element and one pointer (both large
// objects, rounded up to whole 8 KiB pages, at most a page each over N),
// and a few small objects of the call (its goroutines' closures and
// channel), against the pointer layout's one slot per signature.
func TestBatchEntry(t *testing.T) {
	const n = 4000
	c := batchEntry().Case()
	c.Name = batchEntry().BenchName()
	r := memprof.MeasureInstances(t, c, memprof.N(n), memprof.SkipGC()) // bytes and objects only
	elem, ptr := float64(unsafe.Sizeof(blst.P2Affine{})), float64(unsafe.Sizeof((*blst.P2Affine)(nil)))
	const page, small = 8192, 4096 // small: the call's own small objects, far less than a page
	if low, high := elem+ptr, elem+ptr+(2*page+small)/n; r.BytesPerInstance < low || r.BytesPerInstance > high {
		t.Errorf("got %.3f B per instance, want between %.0f (element and pointer) and %.3f (each array rounded up to a page, and the call's small objects)", r.BytesPerInstance, low, high)
	}
	if r.AllocsPerInstance*n < 2 {
		t.Errorf("got %.1f live objects in all, want at least the array and the pointers", r.AllocsPerInstance*n)
	}
	for _, s := range r.Sites {
		t.Logf("site %s:%d %.3f B, %.5f objects per instance", s.Function, s.Line, s.BytesPerInstance, s.AllocsPerInstance)
	}
	if k := batchEntry().Key; k.Layout != measure.Collection || k.Repr != vocab.Affine {
		t.Errorf("got key %s, want the affine collection", k)
	}
}
