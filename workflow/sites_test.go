package workflow

import (
	"context"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/all"
	"github.com/memprof/memprof/vocab"
)

// The operations of sitesRegistry allocate what their names say: one
// buffer on the calling goroutine, or one on a worker goroutine it waits
// for (as blst's calls do), whose stack holds none of the harness's
// frames.
var (
	opAllocates = results.Key{Type: vocab.G2, Lib: vocab.Gnark, Repr: vocab.Jacobian, Op: vocab.ToAffine, Batch: 1}
	opOnWorker  = results.Key{Type: vocab.G2, Lib: vocab.Circl, Repr: vocab.Jacobian, Op: vocab.ToAffine, Batch: 1}
	opFullPath  = results.Key{Type: vocab.G2, Lib: vocab.Blst, Repr: vocab.Jacobian, Op: vocab.ToAffine, Batch: 1}
)

// sitesSink keeps the operations' buffers reachable until the next call.
var sitesSink []byte

//go:noinline
func allocHere() { sitesSink = make([]byte, 3000) }

//go:noinline
func allocOnWorker(done chan<- struct{}) { sitesSink = make([]byte, 7000); close(done) }

// allocatingOp is a G2 to-affine operation whose result is the vectors'
// and whose Run calls alloc.
func allocatingOp(key results.Key, alloc func()) suites.Op {
	return suites.Op{Key: key, Note: "test operation", Path: "alloc", Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
		v, err := suites.ValidInputs(in, fixtures.Load)
		if err != nil {
			return suites.OpHarness{}, err
		}
		return suites.OpHarness{Run: func() error { alloc(); return nil }, Result: func() ([]byte, error) { return v.Ops.ToAffineG2, nil }}, nil
	}}
}

// childRegistries are the registries a child of these tests may serve
// instead of the test registry (childOfThisTest).
var childRegistries = map[string]func() *suites.Registry{"sites": sitesRegistry, "all": all.Registry, "isolated": isolatedRegistry}

var sitesRegistry = sync.OnceValue(func() *suites.Registry {
	worker := func() {
		done := make(chan struct{})
		go allocOnWorker(done)
		<-done
	}
	full := allocatingOp(opFullPath, allocHere)
	full.FullMatrix = true
	r, err := suites.NewRegistry(suites.Suite{Name: "sites", Ops: []suites.Op{allocatingOp(opAllocates, allocHere), allocatingOp(opOnWorker, worker), full}})
	if err != nil {
		panic(err)
	}
	return r
})

// slotOf is what the runtime counts for one call of alloc
// (runtime.MemStats.TotalAlloc counts slots), the least of a few tries.
func slotOf(alloc func()) float64 {
	best := math.Inf(1)
	for range 5 {
		var a, b runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&a)
		alloc()
		runtime.ReadMemStats(&b)
		best = min(best, float64(b.TotalAlloc-a.TotalAlloc))
	}
	return best
}

// TestThroughputSites profiles where the operations allocate, in a child
// (this test binary): each row's sites name the allocating function, hold
// the runtime's own count of that allocation, and sum to the row's
// bytes_per_op from the timed samples; the worker's buffer, allocated on
// a goroutine without the harness's frames, is found. A path of the full
// matrix is left out by default and timed with AllPaths.
func TestThroughputSites(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles in a child process")
	}
	child := childOfThisTest(t, "sites")
	rs, err := Throughput(context.Background(), sitesRegistry(), Selection{}, Options{Samples: 3, MinSample: 5 * time.Millisecond, Agree: blsAgree(agreeing), Child: child})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := keys(rs.Throughput), keyStrings(opAllocates, opOnWorker); !slices.Equal(got, want) {
		t.Fatalf("rows: got %v, want %v (the full-matrix path left out)", got, want)
	}
	for _, tt := range []struct {
		key  results.Key
		fn   string
		slot float64
	}{
		{opAllocates, "allocHere", slotOf(allocHere)},
		{opOnWorker, "allocOnWorker", slotOf(func() { allocOnWorker(make(chan struct{})) }) - slotOf(func() { _ = make(chan struct{}) })},
	} {
		r := rs.Throughput[slices.IndexFunc(rs.Throughput, func(r results.ThroughputRow) bool { return r.Key == tt.key })]
		if r.Error != "" {
			t.Errorf("%s: %s", r.Key, r.Error)
			continue
		}
		if r.Path != "alloc" {
			t.Errorf("%s: got path %q, want the op's", r.Key, r.Path)
		}
		var at float64
		for _, s := range r.Sites {
			if strings.HasSuffix(s.Function, "."+tt.fn) {
				at += s.BytesPerOp
			}
		}
		if at < tt.slot {
			t.Errorf("%s: sites in %s: got %v B per call, want at least the %v the runtime counts; sites %+v", r.Key, tt.fn, at, tt.slot, r.Sites)
		}
		if sum := r.SitesBytesPerOp(); !sitesMatch(sum, r.BytesPerOp) {
			t.Errorf("%s: sites sum to %v B per call, bytes_per_op is %v; want them equal within %v", r.Key, sum, r.BytesPerOp, sitesTolerance(r.BytesPerOp))
		}
	}
	rs, err = Throughput(context.Background(), sitesRegistry(), Selection{}, Options{Samples: 1, MinSample: time.Millisecond, Agree: blsAgree(agreeing), Child: child, AllPaths: true, NoSites: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := keys(rs.Throughput), keyStrings(opFullPath, opAllocates, opOnWorker); !slices.Equal(got, want) {
		t.Errorf("every path: got %v, want %v", got, want)
	}
	for _, r := range rs.Throughput {
		if r.Sites != nil || r.SitesCalls != 0 {
			t.Errorf("%s: NoSites: got sites %+v over %d calls, want none", r.Key, r.Sites, r.SitesCalls)
		}
	}
}

// sitesTolerance is how far a row's sites may be from its bytes_per_op:
// the two are averages over different runs of the operation (the sites'
// over a few calls: at least memprof.MinOpSiteCalls), and what is
// allocated on some calls only (a math/big buffer too small for the
// result, a sync.Pool miss, a slice grown by doubling, a goroutine's
// descriptor) falls differently in each; one 16-byte block (the smallest
// slot) or 10% of the figure (circl's verify, whose math/big buffers
// depend on the data, was seen 5.0% apart over two profiled calls).
func sitesTolerance(bytesPerOp float64) float64 { return max(16, bytesPerOp/10) }

func sitesMatch(sum, bytesPerOp float64) bool {
	return math.Abs(sum-bytesPerOp) <= sitesTolerance(bytesPerOp)
}

// TestBuiltinSitesSumToRow profiles operations of the built-in suites
// whose calls start no goroutine (so what the runtime allocates for
// goroutines now and then does not blur them): each row's sites sum to
// its bytes_per_op within sitesTolerance, and name the library's own
// functions. The BLS12-381 agreement check that precedes the timing is
// a stub here: the real one over the same registry is suites/agree's
// TestLibrariesAgree (it took three quarters of this test's CPU).
func TestBuiltinSitesSumToRow(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles in a child process")
	}
	sel := Selection{Types: []vocab.Type{vocab.Signature}, Libs: []vocab.Lib{vocab.Gnark, vocab.Circl}, Reprs: []vocab.Repr{vocab.Compressed}, Ops: []vocab.Op{vocab.Verify}}
	rs, err := Throughput(context.Background(), all.Registry(), sel, Options{Samples: 3, MinSample: 10 * time.Millisecond, Agree: blsAgree(agreeing), Child: childOfThisTest(t, "all")})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs.Throughput) != 2 {
		t.Fatalf("got rows %v, want gnark's and circl's verify from compressed", keys(rs.Throughput))
	}
	for _, r := range rs.Throughput {
		if r.Error != "" || r.SitesCalls == 0 {
			t.Errorf("%s: error %q, %d calls profiled; want sites", r.Key, r.Error, r.SitesCalls)
			continue
		}
		if sum := r.SitesBytesPerOp(); !sitesMatch(sum, r.BytesPerOp) {
			t.Errorf("%s: sites sum to %v B per call, bytes_per_op is %v; want them equal within %v; sites %+v", r.Key, sum, r.BytesPerOp, sitesTolerance(r.BytesPerOp), r.Sites)
		}
		lib := map[vocab.Lib]string{vocab.Gnark: "gnark-crypto", vocab.Circl: "cloudflare/circl"}[r.Lib]
		if !slices.ContainsFunc(r.Sites, func(s measure.OpSite) bool { return strings.Contains(s.Function, lib) }) {
			t.Errorf("%s: no site in %s; sites %+v", r.Key, lib, r.Sites)
		}
	}
}
