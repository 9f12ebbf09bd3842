package memprof

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"
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

// The runtime/metrics that count the finalizers and cleanups the runtime
// has queued to run, each once, when the collector found its object
// unreachable, and those it has run; and the stack size of new
// goroutines.
const (
	metricFinalizersQueued   = "/gc/finalizers/queued:finalizers"
	metricFinalizersExecuted = "/gc/finalizers/executed:finalizers"
	metricCleanupsQueued     = "/gc/cleanups/queued:cleanups"
	metricCleanupsExecuted   = "/gc/cleanups/executed:cleanups"
	metricStartingStack      = "/gc/stack/starting-size:bytes"
)

// queueReader reads those metrics into samples allocated once, so that a
// reading allocates nothing.
type queueReader struct{ samples []metrics.Sample }

// queueCounts are the queued and run finalizers and cleanups so far.
type queueCounts struct {
	finalizersQueued, finalizersRun, cleanupsQueued, cleanupsRun uint64
}

// newQueueReader returns a reader, having read once (the runtime builds
// its table of metrics on the first read).
func newQueueReader() (*queueReader, error) {
	r := &queueReader{}
	for _, name := range []string{metricFinalizersQueued, metricFinalizersExecuted, metricCleanupsQueued, metricCleanupsExecuted, metricStartingStack} {
		r.samples = append(r.samples, metrics.Sample{Name: name})
	}
	metrics.Read(r.samples)
	for _, s := range r.samples {
		if s.Value.Kind() != metrics.KindUint64 {
			return nil, fmt.Errorf("this Go runtime (%s) has no metric %s", runtime.Version(), s.Name)
		}
	}
	return r, nil
}

// read returns the counts so far.
func (r *queueReader) read() queueCounts {
	metrics.Read(r.samples)
	v := func(i int) uint64 { return r.samples[i].Value.Uint64() }
	return queueCounts{v(0), v(1), v(2), v(3)}
}

// startingStack is the size of the stack a new goroutine gets now (the
// runtime adapts it to the stacks its collections scan).
func (r *queueReader) startingStack() int64 {
	metrics.Read(r.samples)
	return int64(r.samples[4].Value.Uint64())
}

// maxDrain bounds how long drain waits for finalizers and cleanups to run.
const maxDrain = time.Second

// drain collects garbage until no finalizer or cleanup the collections
// queued is left to run (or maxDrain has passed), so that objects an
// earlier pass left with finalizers (resurrected until theirs has run)
// are freed before a pass reads the heap, not during its build.
func (r *queueReader) drain() {
	deadline := time.Now().Add(maxDrain)
	last := r.read()
	runtime.GC()
	for {
		c := r.read()
		switch {
		case c.finalizersRun < c.finalizersQueued || c.cleanupsRun < c.cleanupsQueued:
			if time.Now().After(deadline) {
				return
			}
			time.Sleep(time.Millisecond)
			continue
		case c == last:
			return // the last collection queued nothing more: settled
		}
		// Some ran since: collect what they released (and the objects
		// they kept), which may queue more.
		last = c
		runtime.GC()
	}
}

// Goroutine stacks are allocated from spans of stackSpanBytes (the
// runtime's _StackCacheSize), which the stack figure may be off by; each
// thread the runtime starts takes a stack for its scheduler (g0) and one
// for its signal handler, up to threadStackBytes, in those spans where
// the runtime allocates them (it does not with cgo, which lets the
// thread library allocate g0's); and each P keeps up to freeStacksPerP
// exited goroutines with their stacks of the starting size, for new
// goroutines to reuse (runtime.gfput; the collector frees those of the
// global list), so that a build's new goroutines may take up to that
// many stacks that were already counted.
const (
	stackSpanBytes   = 32 << 10
	threadStackBytes = 48 << 10
	freeStacksPerP   = 63
)

// stackResolution is how far the growth of the stacks in use across a
// build can be from the stacks its goroutines keep, in bytes, when the
// runtime started threads threads meanwhile and new goroutines get
// stacks of starting bytes.
func stackResolution(threads int, starting int64) int64 {
	return stackSpanBytes + int64(max(threads, 0))*threadStackBytes + freeStacksPerP*int64(runtime.GOMAXPROCS(0))*starting
}

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
