package truth

import (
	"context"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"
	"unsafe"
	"weak"

	"github.com/memprof/memprof/memprof"
)

// weakProbeEnv asks this test binary, started as a child, for
// weakRecordProbe's reading instead of its tests.
const weakProbeEnv = "MEMPROF_TRUTH_WEAK_PROBE"

// weakProbeHandles is how many weak pointers the probe makes: GCSys grows
// in the runtime's 16 KiB chunks, read to well under a byte per record.
const weakProbeHandles = 500_000

func init() {
	serveProbe(weakProbeEnv, func(string) (any, error) { return weakRecordProbe(), nil })
}

// weakRecordProbe returns what the runtime takes outside the heap for one
// weak pointer's handle in this fresh process, with no memprof code: the
// growth of runtime.MemStats.GCSys, where the runtime counts the records
// of weak pointers' handles, per weak.Make on a distinct live object,
// less its growth over as many objects of the handle's size allocated
// without one (what the heap's own growth adds to GCSys cancels).
func weakRecordProbe() float64 {
	debug.SetGCPercent(-1)
	objects := make([]*Payload, weakProbeHandles)
	for i := range objects {
		objects[i] = new(Payload)
	}
	ptrs := make([]weak.Pointer[Payload], weakProbeHandles)
	twins := make([]*[2]uintptr, weakProbeHandles)
	gcSys := func() float64 {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return float64(ms.GCSys)
	}
	before := gcSys()
	for i := range twins {
		twins[i] = new([2]uintptr)
	}
	mid := gcSys()
	// Last object first: a span keeps its objects' records in a list by
	// address, which a record for an object below all the others joins
	// at its head (in allocation order each walked the whole list). The
	// records are the same in either order.
	for i, p := range slices.Backward(objects) {
		ptrs[i] = weak.Make(p)
	}
	after := gcSys()
	runtime.KeepAlive(objects)
	runtime.KeepAlive(twins)
	runtime.KeepAlive(ptrs)
	return ((after - mid) - (mid - before)) / weakProbeHandles
}

// weakRecordBytes is the size of a weak pointer's handle's record outside
// the heap, read by weakRecordProbe in a fresh child process and taken to
// the whole words the runtime's records are made of.
func weakRecordBytes(t *testing.T) float64 {
	t.Helper()
	var per float64
	probe(t, "weak record probe", weakProbeEnv, "1", &per)
	word := float64(unsafe.Sizeof(uintptr(0)))
	words := math.Round(per / word)
	if math.Abs(per-words*word) > word/4 || words < 1 {
		t.Fatalf("weak record probe: %v B per handle, not within a quarter word of whole words", per)
	}
	return words * word
}

// TestWeakTruth: instances that each hold an object and a weak pointer to
// it keep, on the heap, the instance, the object and the weak pointer's
// handle (the runtime's tiny size: two words), three objects; and outside
// it the handle's record, whose size a fresh process with no memprof code
// tells. Measured in a child, as the memprof command does, and in this
// process.
func TestWeakTruth(t *testing.T) {
	n := instances(t)
	record := weakRecordBytes(t)
	handle := sizeClass(t, 2*unsafe.Sizeof(uintptr(0)))
	want := truth{
		bytes:   sizeClass(t, unsafe.Sizeof(Weakly{})) + sizeClass(t, unsafe.Sizeof(Payload{})) + handle,
		objects: 3,
		slot:    sizeClass(t, unsafe.Sizeof(Payload{})),
		offheap: record,
	}
	t.Logf("want %v B in %v objects on the heap, %v B outside it (the record, from a fresh process)", want.bytes, want.objects, record)
	c := memprof.Case{Name: "weak", New: NewWeakly}
	t.Run("child", func(t *testing.T) {
		r, err := memprof.MeasureInChild(context.Background(), memprof.Child{Args: []string{"-test.run=^$"}}, "weak", "", memprof.N(n))
		if err != nil {
			t.Fatal(err)
		}
		check(t, r, want, true)
	})
	t.Run("in-process", func(t *testing.T) {
		r, err := memprof.Measure(c, memprof.N(n))
		if err != nil {
			t.Fatal(err)
		}
		check(t, r, want, false)
	})
}
