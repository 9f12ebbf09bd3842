package memprof

import (
	"math"
	"runtime"
	"slices"
	"strings"

	"github.com/memprof/memprof/internal/frame"
)

// The engine's attribution reads the heap profile's records directly
// (runtime.MemProfile), not the written profile: a record keeps the
// runtime's own frames, which tell the runtime's bookkeeping (a blocked
// channel operation's wait record, a goroutine's descriptor) from what the
// instances keep, where the written profile hides them. A pass takes a
// snapshot of the records after a collection before its build and another
// after, and what the build added is the difference, record by record: so
// objects that were live before the build do not count, whoever allocated
// them, and objects allocated on any goroutine during it do.

// recordKey names one of the runtime's profile buckets: an allocation
// stack (its first 32 frames, as runtime.MemProfileRecord keeps them) and
// the slot size of its objects.
type recordKey struct {
	stack [32]uintptr
	size  int64
}

// recordSnapshot is the heap profile's records at one moment, by bucket:
// the live objects (allocated minus freed) as of the last completed
// collection, and the objects allocated so far.
type recordSnapshot map[recordKey]recordCount

type recordCount struct{ inuse, allocs int64 }

// recordBuffer holds the records a snapshot reads, allocated beforehand so
// that taking a snapshot allocates nothing on the Go heap (a pass reads the
// live heap around its build, and nothing of the engine's may fall between
// the readings).
type recordBuffer struct{ recs []runtime.MemProfileRecord }

// newRecordBuffer returns a buffer with room for the profile's records now
// and for spare more (the buckets a build adds).
func newRecordBuffer(spare int) *recordBuffer {
	n, _ := runtime.MemProfile(nil, true)
	return &recordBuffer{recs: make([]runtime.MemProfileRecord, n+spare)}
}

// read copies the profile's records into the buffer and returns them; ok is
// false when they do not fit (nothing is then read, and nothing
// allocated). Every bucket is read, those without live objects too, so
// that a difference sees objects freed since an earlier snapshot.
func (b *recordBuffer) read() (recs []runtime.MemProfileRecord, ok bool) {
	n, ok := runtime.MemProfile(b.recs, true)
	if !ok {
		return nil, false
	}
	return b.recs[:n], true
}

// grow replaces the buffer by one the records fit in, and returns them.
// It allocates: a pass grows its buffer, or builds a snapshot, only where
// its heap readings allow it.
func (b *recordBuffer) grow() []runtime.MemProfileRecord {
	for {
		n, _ := runtime.MemProfile(nil, true)
		b.recs = make([]runtime.MemProfileRecord, n+n/4+256)
		if recs, ok := b.read(); ok {
			return recs
		}
	}
}

// snapshot reads the records into a snapshot, growing the buffer when they
// do not fit.
func (b *recordBuffer) snapshot() recordSnapshot {
	recs, ok := b.read()
	if !ok {
		recs = b.grow()
	}
	return snapshotOf(recs)
}

// snapshotOf indexes records by bucket.
func snapshotOf(recs []runtime.MemProfileRecord) recordSnapshot {
	s := make(recordSnapshot, len(recs))
	for i := range recs {
		r := &recs[i]
		if r.AllocObjects <= 0 {
			continue
		}
		k := recordKey{r.Stack0, r.AllocBytes / r.AllocObjects}
		c := s[k]
		c.inuse += r.InUseObjects()
		c.allocs += r.AllocObjects
		s[k] = c
	}
	return s
}

// frameMark is a set of the engine's frames a stack passes through.
type frameMark uint8

const (
	markConstruct frameMark = 1 << iota // constructInstances or constructSlice
	markFewer                           // their twins (constructFewerInstances, constructFewerSlice)
	markHolder                          // allocHolder
	markEngine                          // any other function of this package: the engine's own
)

// enginePrefix starts the names of this package's functions.
var enginePrefix = constructFrame[:strings.LastIndex(constructFrame, ".")+1]

// stackInfo is what attribution needs of one allocation stack.
type stackInfo struct {
	// site is the allocating frame: the first one outside the Go
	// runtime.
	site siteKey
	// runtimeRecord says that the runtime allocated the object for its
	// own bookkeeping (runtimeRecordFrame), or that no frame of the stack
	// is outside the runtime (its collector's own).
	runtimeRecord bool
	marks         frameMark
	// weakHandle says that the object is a weak pointer's handle
	// (below weakHandleFrame): one per object weak.Make was called on,
	// each with a record outside the heap (weakHandleRecordBytes).
	weakHandle bool
	// grownArray says that the record is an array the runtime grows by
	// replacing it (runtimeGrownFrames): each one frees the one before.
	grownArray bool
	// hashSeeded says that the object is a part of a structure whose
	// layout follows a hash seed (hashSeededFrames): a map's table, a
	// node of unique's map.
	hashSeeded bool
}

// engineOwn reports whether the engine allocated the object for itself:
// below a function of this package and none of its constructor and holder
// frames.
func (si stackInfo) engineOwn() bool {
	return si.marks&markEngine != 0 && si.marks&(markConstruct|markFewer|markHolder) == 0
}

// stackInfos caches the stackInfo of each stack, for every measurement of
// the process (guarded by measureMu): symbolizing a stack costs.
var stackInfos = map[[32]uintptr]stackInfo{}

// infoOf returns what attribution needs of stack.
func infoOf(stack [32]uintptr) stackInfo {
	if si, ok := stackInfos[stack]; ok {
		return si
	}
	n := slices.Index(stack[:], 0)
	if n < 0 {
		n = len(stack)
	}
	frames := runtime.CallersFrames(stack[:n])
	var si stackInfo
	leaf := true // still in the runtime frames the allocation is below
	for {
		f, more := frames.Next()
		if leaf && slices.ContainsFunc(hashSeededFrames, func(p string) bool { return strings.HasPrefix(f.Function, p) }) {
			si.hashSeeded = true
		}
		switch {
		case leaf && slices.Contains(runtimeRecordFrames, f.Function):
			si.runtimeRecord = true
			si.grownArray = slices.Contains(runtimeGrownFrames, f.Function)
			leaf = false
		case leaf && f.Function != "" && !frame.IsAllocatorFunction(f.Function):
			si.site = siteKey{function: f.Function, file: f.File, line: int64(f.Line)}
			leaf = false
		}
		switch f.Function {
		case weakHandleFrame:
			si.weakHandle = true
		case constructFrame, sliceFrame:
			si.marks |= markConstruct
		case fewerConstructFrame, fewerSliceFrame:
			si.marks |= markFewer
		case holderFrame:
			si.marks |= markHolder
		default:
			if strings.HasPrefix(f.Function, enginePrefix) {
				si.marks |= markEngine
			}
		}
		if !more {
			break
		}
	}
	if si.site.function == "" {
		si.runtimeRecord = true // the runtime's own: no frame outside it
	}
	if si.runtimeRecord && si.site.function == "" {
		si.site = siteKey{function: runtimeRecordsSite}
	}
	stackInfos[stack] = si
	return si
}

// runtimeRecordsSite names the runtime's records in the engine's own
// accounts (never a site of a result).
const runtimeRecordsSite = "(runtime)"

// siteRow is what one allocation site added to the heap in one pass: its
// live objects and bytes (estimates scaled by the sampling rate for a
// sampled pass), the distinct slot sizes, and how many objects the profile
// actually recorded.
type siteRow struct {
	site           siteKey
	bytes, objects int64
	sizes          []int64
	sampled        int64
	// allocBytes is what the site allocated in the pass, freed or not
	// (scaled as bytes).
	allocBytes int64
	// variance is the variance of bytes, an estimate from a sampled
	// profile (0 from an exact one): each live object of size z sampled
	// with probability p, standing for z/p bytes, adds (z/p)²(1-p).
	variance float64
	// hashSeeded says that some of its objects are parts of a structure
	// whose layout follows a hash seed (stackInfo.hashSeeded).
	hashSeeded bool
}

// sigma is the standard deviation of the row's bytes.
func (r siteRow) sigma() float64 { return math.Sqrt(r.variance) }

// buildAccount is what one build added to the heap, from the difference
// of two snapshots: its sites, the runtime's records apart, the holder's,
// and (in a process shared with other code) what was allocated outside
// the engine's constructor frames.
type buildAccount struct {
	sites   []siteRow
	runtime heapCount
	// runtimeVariance is the variance of runtime's bytes, estimated from
	// a sampled profile (0 from an exact one).
	runtimeVariance float64
	// grown is the largest array the runtime allocated in the build to
	// replace one it had (runtimeGrownFrames), one object: the most that
	// the free of the array it replaced can take from the live heap
	// where the profile never recorded that one (allocated while
	// profiling was off).
	grown   heapCount
	holder  heapCount
	outside heapCount
	// freed is what the sites that freed more than they allocated
	// (objects live before the build) lost.
	freed heapCount
	// allocBytes is everything the build allocated, freed or not, on any
	// goroutine, the holder excepted.
	allocBytes int64
	// weakHandles is how many of the sites' live objects are weak
	// pointers' handles (stackInfo.weakHandle), each with its record
	// outside the heap.
	weakHandles int64
}

// scope says which of a difference's records are the build's: those below
// the given engine frames (mark), or, for a build in a process of its
// own (whole), every record outside the runtime's and the holder's.
type scope struct {
	mark  frameMark
	whole bool
}

// account returns what the build between the snapshots before and after
// added, within scope s, at sampling rate rate (1: every allocation). A
// bucket's objects are estimated from the objects sampled as the heap
// profile scales them (heapscan's reader does likewise): each sampled
// object of size z stands for 1/(1-exp(-z/rate)) objects.
func account(before, after recordSnapshot, s scope, rate int) buildAccount {
	var a buildAccount
	rows := map[siteKey]*siteRow{}
	for k, c := range after {
		b := before[k]
		dIn, dAlloc := c.inuse-b.inuse, c.allocs-b.allocs
		if dIn == 0 && dAlloc == 0 {
			continue
		}
		si := infoOf(k.stack)
		objects, bytes := scaled(dIn, k.size, rate)
		_, allocBytes := scaled(dAlloc, k.size, rate)
		if !si.engineOwn() && si.marks&markHolder == 0 {
			a.allocBytes += allocBytes
		}
		switch {
		case si.engineOwn():
			// The engine's own (a snapshot's map, taken with profiling
			// off, whose first allocation the runtime samples all the
			// same: it samples the first after every change of rate).
			continue
		case si.marks&markHolder != 0:
			a.holder.bytes += bytes
			a.holder.objects += objects
			continue
		case si.runtimeRecord:
			a.runtime.bytes += bytes
			a.runtime.objects += objects
			a.runtimeVariance += sampledVariance(dIn, k.size, rate)
			if si.grownArray && dAlloc > 0 {
				a.grown = heapCount{max(a.grown.bytes, k.size), 1}
			}
			continue
		case !s.whole && si.marks&s.mark == 0:
			a.outside.bytes += bytes
			a.outside.objects += objects
			continue
		}
		if si.weakHandle {
			a.weakHandles += objects
		}
		r := rows[si.site]
		if r == nil {
			r = &siteRow{site: si.site}
			rows[si.site] = r
		}
		r.bytes += bytes
		r.objects += objects
		r.sampled += dIn
		r.allocBytes += allocBytes
		r.variance += sampledVariance(dIn, k.size, rate)
		r.hashSeeded = r.hashSeeded || si.hashSeeded
		if dIn > 0 && !slices.Contains(r.sizes, k.size) {
			r.sizes = append(r.sizes, k.size)
		}
	}
	for _, r := range rows {
		switch {
		case r.bytes == 0 && r.objects == 0:
			continue
		case r.bytes < 0 || r.objects < 0:
			// More freed at the site than the build allocated there:
			// objects live before the build that it freed. No site
			// keeps them; the live heap's growth shows them, and what
			// no site explains is their account.
			a.freed.bytes += r.bytes
			a.freed.objects += r.objects
			continue
		}
		slices.Sort(r.sizes)
		a.sites = append(a.sites, *r)
	}
	slices.SortFunc(a.sites, func(x, y siteRow) int {
		switch {
		case x.bytes != y.bytes:
			if x.bytes > y.bytes {
				return -1
			}
			return 1
		case x.site.function != y.site.function:
			return strings.Compare(x.site.function, y.site.function)
		}
		return int(x.site.line - y.site.line)
	})
	return a
}

// sampledVariance is the variance of the bytes that count live objects of
// size bytes, sampled at rate, stand for: each, sampled with probability
// p and standing for z = size/p bytes, adds z²(1-p). 0 for an exact
// profile (rate 1).
func sampledVariance(count, size int64, rate int) float64 {
	if rate <= 1 || count <= 0 || size <= 0 {
		return 0
	}
	p := 1 - math.Exp(-float64(size)/float64(rate))
	z := float64(size) / p
	return float64(count) * z * z * (1 - p)
}

// scaled returns the objects and bytes that count objects of size bytes
// sampled at rate stand for (the runtime's heap-profile scaling).
func scaled(count, size int64, rate int) (objects, bytes int64) {
	if rate <= 1 || count == 0 || size <= 0 {
		return count, count * size
	}
	scale := 1 / (1 - math.Exp(-float64(size)/float64(rate)))
	return int64(math.Round(float64(count) * scale)), int64(math.Round(float64(count*size) * scale))
}

// total is the sum of the account's sites.
func (a buildAccount) total() heapCount {
	var t heapCount
	for _, r := range a.sites {
		t.bytes += r.bytes
		t.objects += r.objects
	}
	return t
}
