package gnark

import (
	"runtime"
	"testing"

	bls12381 "github.com/consensys/gnark-crypto/ecc/bls12-381"

	"github.com/memprof/memprof/suites/internal/suitetest"
)

func TestSuite(t *testing.T) { suitetest.CheckSuite(t, Suite()) }

func BenchmarkNew(b *testing.B) { suitetest.BenchmarkNew(b, Suite()) }

// TestWarmDecoder checks that after warmDecoder the shared Decoder decodes
// real points of both groups without the runtime building the cache of
// Decode's io.ReaderFrom assertion (at a ~1/1024 chance a miss, on the
// heap: a case's measured pass could be charged for it). Every allocation
// of the decodes is profiled; without the warming, one would come from
// runtime.typeAssert all but surely.
func TestWarmDecoder(t *testing.T) {
	g1, g2 := HashedG1Affine()[0].RawBytes(), SignaturesG2()[0].RawBytes()
	warmDecoder()
	before := typeAssertAllocs()
	rate := runtime.MemProfileRate
	runtime.MemProfileRate = 1
	var p1 bls12381.G1Affine
	var p2 bls12381.G2Affine
	for range warmDecodes / 2 {
		if !decode(&p1, g1[:]) || !decode(&p2, g2[:]) {
			t.Fatal("decoding a point's uncompressed encoding failed")
		}
	}
	runtime.MemProfileRate = rate
	if n := typeAssertAllocs() - before; n != 0 {
		t.Errorf("%d decodes of each group after warmDecoder: runtime.typeAssert allocated %d objects, want none", warmDecodes/2, n)
	}
}

// typeAssertAllocs is how many objects the heap profile records as
// allocated below runtime.typeAssert, after two collections publish it.
func typeAssertAllocs() int64 {
	runtime.GC()
	runtime.GC()
	n, _ := runtime.MemProfile(nil, true)
	recs := make([]runtime.MemProfileRecord, n+50)
	n, ok := runtime.MemProfile(recs, true)
	if !ok {
		panic("heap profile grew by more than 50 records")
	}
	var objects int64
	for _, r := range recs[:n] {
		frames := runtime.CallersFrames(r.Stack())
		for {
			f, more := frames.Next()
			if f.Function == "runtime.typeAssert" {
				objects += r.AllocObjects
				break
			}
			if !more {
				break
			}
		}
	}
	return objects
}
