package memprof

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
)

// footprint is one reading of the process's memory, taken between GCs.
type footprint struct {
	// heapAlloc and heapObjects are runtime.MemStats.HeapAlloc and
	// HeapObjects: the bytes and the objects of the heap, live and not yet
	// freed (right after a collection, the live ones).
	heapAlloc   uint64
	heapObjects uint64
	// otherSys is runtime.MemStats.OtherSys, where the runtime keeps
	// finalizer and cleanup records. It grows in persistent chunks of
	// 256 KiB, which the span, mcache, bucket and GC statistics also carve
	// from (moving their share out of OtherSys), so one reading is exact
	// only to a chunk, and a delta of two readings to two: its resolution
	// over N instances is 512 KiB / N.
	otherSys uint64
	// metaSys sums the heap's own metadata taken from those chunks:
	// MSpanSys, MCacheSys, BuckHashSys and GCSys. It grows with the heap
	// (about one span record per 8 KiB), not with any one object.
	metaSys uint64
	// stackInuse is runtime.MemStats.StackInuse: the goroutine stacks'
	// spans, outside the heap.
	stackInuse uint64
	cHeap      int64  // glibc malloc in use; valid when cHeapWhy == ""
	cHeapWhy   string // why cHeap is not available
	rss        int64  // resident set size, bytes; -1 when unknown
}

// readFootprint reads the process's memory; the heap first, so that
// nothing the reading does is in it. It allocates nothing on the Go heap
// (the footprint pass's live-heap totals count every object allocated
// between two readings).
func readFootprint(s statm) footprint {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	c, why := cHeapInUse()
	return footprint{
		heapAlloc:   ms.HeapAlloc,
		heapObjects: ms.HeapObjects,
		otherSys:    ms.OtherSys,
		metaSys:     ms.MSpanSys + ms.MCacheSys + ms.BuckHashSys + ms.GCSys,
		stackInuse:  ms.StackInuse,
		cHeap:       c,
		cHeapWhy:    why,
		rss:         s.resident(),
	}
}

// The runtime keeps a record outside the heap for every finalizer
// (runtime.SetFinalizer) and every cleanup (runtime.AddCleanup) of a live
// object: runtime.specialfinalizer and runtime.specialCleanup
// (runtime/mheap.go, Go 1.26: a 24-byte special header and 32 bytes of
// the function and its argument's description), from fixed-size
// allocators counted in runtime.MemStats.OtherSys. TestRecordSizes checks
// them against OtherSys's growth in a fresh process.
const (
	finalizerRecordBytes = 56
	cleanupRecordBytes   = 56
)

// The runtime/metrics that count finalizers and cleanups the runtime has
// queued to run, each once, when the collector finds its object
// unreachable.
const (
	metricFinalizersQueued = "/gc/finalizers/queued:finalizers"
	metricCleanupsQueued   = "/gc/cleanups/queued:cleanups"
)

// finalizerReader reads the queued finalizer and cleanup counts into
// samples allocated once, so that a reading allocates nothing.
type finalizerReader struct{ samples []metrics.Sample }

// newFinalizerReader returns a reader, having read once (the runtime
// builds its table of metrics on the first read).
func newFinalizerReader() (*finalizerReader, error) {
	r := &finalizerReader{samples: []metrics.Sample{{Name: metricFinalizersQueued}, {Name: metricCleanupsQueued}}}
	metrics.Read(r.samples)
	for _, s := range r.samples {
		if s.Value.Kind() != metrics.KindUint64 {
			return nil, fmt.Errorf("this Go runtime (%s) has no metric %s", runtime.Version(), s.Name)
		}
	}
	return r, nil
}

// read returns how many finalizers and cleanups the runtime has queued
// so far.
func (r *finalizerReader) read() (finalizers, cleanups uint64) {
	metrics.Read(r.samples)
	return r.samples[0].Value.Uint64(), r.samples[1].Value.Uint64()
}

// Goroutine stacks are allocated from spans of stackSpanBytes (the
// runtime's _StackCacheSize), which the stack figure may be off by; each
// thread the runtime starts takes a stack for its scheduler (g0) and one
// for its signal handler, up to threadStackBytes, in those spans where
// the runtime allocates them (it does not with cgo, which lets the
// thread library allocate g0's).
const (
	stackSpanBytes   = 32 << 10
	threadStackBytes = 48 << 10
)

// heapCount is a part of the live heap: its bytes and objects.
type heapCount struct{ bytes, objects int64 }

// liveHeap reads the heap's bytes and objects; it allocates nothing.
func liveHeap() heapCount {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return heapCount{int64(ms.HeapAlloc), int64(ms.HeapObjects)}
}

// threadsCreated is how many threads the runtime has started in this
// process (the threadcreate profile's count); it allocates nothing.
func threadsCreated() int {
	n, _ := runtime.ThreadCreateProfile(nil)
	return n
}

// sub is h minus o.
func (h heapCount) sub(o heapCount) heapCount {
	return heapCount{h.bytes - o.bytes, h.objects - o.objects}
}

// parseStatm returns the resident set of /proc/self/statm's content b,
// in pages (its second field), or -1.
func parseStatm(b []byte) int64 {
	field, pages, digits := 0, int64(0), 0
	for _, ch := range b {
		switch {
		case ch == ' ' || ch == '\n':
			if digits > 0 {
				if field == 1 {
					return pages
				}
				field++
			}
			pages, digits = 0, 0
		case ch >= '0' && ch <= '9' && digits < 18:
			pages = pages*10 + int64(ch-'0')
			digits++
		default:
			return -1
		}
	}
	if field == 1 && digits > 0 {
		return pages
	}
	return -1
}

// availableMemory returns MemAvailable from /proc/meminfo in bytes, or 0
// when it cannot be read.
func availableMemory() uint64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemAvailable:"); ok {
			f := strings.Fields(rest)
			if len(f) >= 1 {
				kb, err := strconv.ParseUint(f[0], 10, 64)
				if err == nil {
					return kb * 1024
				}
			}
		}
	}
	return 0
}
