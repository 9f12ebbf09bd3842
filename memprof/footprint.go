package memprof

import (
	"os"
	"runtime"
	"strconv"
	"strings"
)

// footprint is one reading of the process's memory, taken between GCs.
type footprint struct {
	heapAlloc uint64 // runtime.MemStats.HeapAlloc
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
	metaSys  uint64
	cHeap    int64  // glibc malloc in use; valid when cHeapWhy == ""
	cHeapWhy string // why cHeap is not available
	rss      int64  // resident set size, bytes; -1 when unknown
}

func readFootprint() footprint {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	c, why := cHeapInUse()
	return footprint{
		heapAlloc: ms.HeapAlloc,
		otherSys:  ms.OtherSys,
		metaSys:   ms.MSpanSys + ms.MCacheSys + ms.BuckHashSys + ms.GCSys,
		cHeap:     c,
		cHeapWhy:  why,
		rss:       residentBytes(),
	}
}

// residentBytes reads the resident set size from /proc/self/statm; it
// returns -1 where that file does not exist.
func residentBytes() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return -1
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return -1
	}
	return pages * int64(os.Getpagesize())
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
