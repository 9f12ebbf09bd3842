package truth

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Value is what most of the classes' instances hold: 48 bytes, one size
// class of its own.
type Value struct{ a [6]uint64 }

// Handoff: the constructor sends the work to a worker goroutine and
// blocks on its answer (an unbuffered channel: the receive parks, and the
// runtime allocates its wait record below the constructor). The instance
// is the worker's allocation.
var handoff struct {
	once sync.Once
	req  chan int
	resp chan *Value
}

func handoffWorker() {
	for i := range handoff.req {
		handoff.resp <- &Value{a: [6]uint64{uint64(i)}}
	}
}

// NewHandoff makes instance i on the handoff worker.
func NewHandoff(i int) any {
	handoff.once.Do(func() {
		handoff.req, handoff.resp = make(chan int), make(chan *Value)
		go handoffWorker()
	})
	handoff.req <- i
	return <-handoff.resp
}

// Spin: the constructor hands the work to a worker and waits for it
// without blocking (it yields until the worker says it is done).
type spinJob struct {
	i    int
	out  *Value
	done atomic.Bool
}

var spin struct {
	once sync.Once
	req  chan *spinJob
}

func spinWorker() {
	for j := range spin.req {
		j.out = &Value{a: [6]uint64{uint64(j.i)}}
		j.done.Store(true)
	}
}

// NewSpin makes instance i on the spinning worker.
func NewSpin(i int) any {
	spin.once.Do(func() {
		spin.req = make(chan *spinJob, 1)
		go spinWorker()
	})
	j := &spinJob{i: i}
	spin.req <- j
	for !j.done.Load() {
		runtime.Gosched()
	}
	return j.out
}

// Parts is an instance of four parts, each allocated on another goroutine.
type Parts struct{ parts [4]*Part }

// Part is one of them.
type Part [64]byte

// A pool of four workers; the constructor hands each a part to make and
// waits for them on a WaitGroup.
type poolJob struct {
	p  *Parts
	k  int
	wg *sync.WaitGroup
}

var pool struct {
	once sync.Once
	jobs chan poolJob
}

func poolWorker() {
	for j := range pool.jobs {
		j.p.parts[j.k] = new(Part)
		j.wg.Done()
	}
}

// NewPooled makes instance i's parts on the pool of workers.
func NewPooled(i int) any {
	pool.once.Do(func() {
		pool.jobs = make(chan poolJob)
		for range 4 {
			go poolWorker()
		}
	})
	p := &Parts{}
	var wg sync.WaitGroup
	wg.Add(4)
	for k := range 4 {
		pool.jobs <- poolJob{p, k, &wg}
	}
	wg.Wait()
	return p
}

// NewSpawned makes instance i's parts on a goroutine each, started for
// it and waited for, as errgroup.Group.Go and Wait do (the runtime
// allocates the goroutines' descriptors when it has none to reuse).
func NewSpawned(i int) any {
	p := &Parts{}
	var wg sync.WaitGroup
	for k := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.parts[k] = new(Part)
		}()
	}
	wg.Wait()
	return p
}

// Grouped instances share a group: every GroupEvery-th starts a new one,
// which the instances after it point to. The first instance of a build
// replaces the group the previous build left in curGroup, which the
// previous build's instances (dropped) no longer keep: that group was
// live before the build and is freed during it, so the live heap grows
// by one group fewer than the build allocates.
type Grouped struct {
	a [5]uint64
	g *Group
}

// Group is the shared structure.
type Group [4096]byte

// GroupEvery is how many instances share a group: more than the engine
// profiles in one set, so that its profiled instances hold one group in
// each set.
const GroupEvery = 4096

var curGroup *Group

// NewGrouped makes instance i, starting a group every GroupEvery.
func NewGrouped(i int) any {
	if i%GroupEvery == 0 {
		curGroup = new(Group)
	}
	return &Grouped{g: curGroup}
}

// Late instances, from LateFrom on, hold an extra object: one that the
// instances the engine profiles (a few thousand) do not have.
type Late struct {
	a     [5]uint64
	extra *[64]byte
}

// LateFrom is the first instance with the extra object.
const LateFrom = 9_900

// NewLate makes instance i.
func NewLate(i int) any {
	p := &Late{}
	if i >= LateFrom {
		p.extra = new([64]byte)
	}
	return p
}

// Sized instances hold a buffer whose size follows the input vector (the
// suites cycle through 64): the mix of sizes of the first instances is
// not that of N.
type Sized struct{ b []byte }

// SizedLen is instance i's buffer length.
func SizedLen(i int) int { return 16 * (1 + i%64) }

// NewSized makes instance i.
func NewSized(i int) any { return &Sized{b: make([]byte, SizedLen(i))} }

// A sync.Pool of scratch buffers, taken and put back by every
// constructor call: the pool's contents and its per-P arrays are the
// pool's, freed by the collections after the build, not the instances'.
var scratch = sync.Pool{New: func() any { return new([4096]byte) }}

// NewScratch makes instance i through a pooled scratch buffer.
func NewScratch(i int) any {
	b := scratch.Get().(*[4096]byte)
	b[0] = byte(i)
	p := &Value{}
	p.a[0] = uint64(b[0])
	scratch.Put(b)
	return p
}

// NewFinalized makes instance i with a finalizer (a record outside the
// heap).
func NewFinalized(i int) any {
	p := &Value{}
	runtime.SetFinalizer(p, func(*Value) {})
	return p
}

// NewCleaned makes instance i with a cleanup (a record outside the heap,
// and AddCleanup's box for its argument and its closure on the heap).
func NewCleaned(i int) any {
	p := &Value{}
	runtime.AddCleanup(p, func(int) {}, i)
	return p
}

// WithLarge instances hold, every LargeEvery-th, a large object: one of
// its own span of whole runtime pages.
type WithLarge struct {
	a   [5]uint64
	big *Large
}

// Large is larger than the largest size class.
type Large [40_000]byte

// LargeEvery is how often an instance holds a large object.
const LargeEvery = 64

// NewWithLarge makes instance i.
func NewWithLarge(i int) any {
	p := &WithLarge{}
	if i%LargeEvery == 0 {
		p.big = new(Large)
	}
	return p
}

// Served instances run, every ServedEvery-th, a goroutine until they are
// dropped (their finalizer stops it): its stack is outside the heap.
type Served struct {
	stop chan struct{}
	a    [5]uint64
}

// ServedEvery is how often an instance runs a goroutine.
const ServedEvery = 8

// ServeFrame is the stack frame the goroutine keeps while it waits: more
// than half of ServedStack, so that the stack it needs is ServedStack
// (stacks double from 2 KiB, and the collector does not shrink a stack
// a quarter used), whatever size the runtime starts goroutines with.
const (
	ServeFrame  = 6000
	ServedStack = 8 << 10
)

//go:noinline
func serve(stop chan struct{}) {
	var frame [ServeFrame]byte
	frame[0] = 1
	<-stop
	runtime.KeepAlive(&frame)
}

// NewServed makes instance i.
func NewServed(i int) any {
	s := &Served{}
	if i%ServedEvery == 0 {
		s.stop = make(chan struct{})
		go serve(s.stop)
		runtime.SetFinalizer(s, func(s *Served) { close(s.stop) })
	}
	return s
}
