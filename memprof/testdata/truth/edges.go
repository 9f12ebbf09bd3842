//go:build unix

package truth

import (
	"sync"
	"syscall"
	"time"
	"unique"
)

// The edge cases of issue 33: instances that keep goroutines parked,
// instances that enter a registry every other instance shares (a map, a
// slice, the mmapper's table, the runtime's timer heaps, unique's map),
// and instances past the profiled ones that upsize a buffer at a site
// the profiled ones have.

// Parked instances each start a goroutine parked on the channel they
// hold: the goroutine's descriptor and its wait record are the
// runtime's; the instance keeps itself and the channel.
type Parked struct {
	c chan int
	a [7]uint64
}

// NewParked makes instance i.
func NewParked(i int) any {
	c := make(chan int)
	go func() { <-c }()
	return &Parked{c: c}
}

// NewSelectForever makes instance i and starts a goroutine blocked for
// good in an empty select, which captures nothing: the instance keeps
// only its Value.
func NewSelectForever(i int) any {
	go func() { select {} }()
	return &Value{a: [6]uint64{uint64(i)}}
}

// Registered instances enter a registry every instance shares.
type Registered struct{ a [5]uint64 }

// regMap is the map registry; regSlice the slice one.
var (
	regMu    sync.Mutex
	regMap   = map[int]*Registered{}
	regSlice []*Registered
)

// NewMapRegistered makes instance i and enters it into the map registry
// under a key no other instance has.
func NewMapRegistered(i int) any {
	r := &Registered{}
	regMu.Lock()
	regMap[len(regMap)] = r
	regMu.Unlock()
	return r
}

// NewSliceRegistered makes instance i and appends it to the slice
// registry.
func NewSliceRegistered(i int) any {
	r := &Registered{}
	regMu.Lock()
	regSlice = append(regSlice, r)
	regMu.Unlock()
	return r
}

// Mapped instances each hold a page mapped with syscall.Mmap: the page
// is outside the heap; the syscall package's table of mappings (a map)
// grows with them.
type Mapped struct{ b []byte }

// MappedBytes is each instance's mapping.
const MappedBytes = 4096

// NewMapped makes instance i.
func NewMapped(i int) any {
	b, err := syscall.Mmap(-1, 0, MappedBytes, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		panic(err)
	}
	return &Mapped{b: b}
}

// Timed instances each hold a timer that fires in an hour: the timer and
// its function are the instance's, and the runtime's timer heaps grow
// with them.
type Timed struct{ t *time.Timer }

// NewTimed makes instance i.
func NewTimed(i int) any {
	return &Timed{t: time.AfterFunc(time.Hour, func() {})}
}

// Upsized instances hold a buffer of SmallBuf bytes, but the UpsizedCount
// from UpsizedFrom on, past the instances the engine profiles (2,048 and
// 512), hold one of BigBuf bytes, from the same line.
type Upsized struct{ b []byte }

// The upsized instances and their buffers.
const (
	UpsizedFrom  = 2560
	UpsizedCount = 8
	SmallBuf     = 48
	BigBuf       = 256
)

// UpsizedLen is instance i's buffer length.
func UpsizedLen(i int) int {
	if i >= UpsizedFrom && i < UpsizedFrom+UpsizedCount {
		return BigBuf
	}
	return SmallBuf
}

// NewUpsized makes instance i.
func NewUpsized(i int) any { return &Upsized{b: make([]byte, UpsizedLen(i))} }

// Interned instances each hold the handle of a value no other instance
// interns: unique's map, whose layout follows its hash seed, grows with
// them (and drops what they interned once they are gone).
type Interned struct{ h unique.Handle[[4]uint64] }

var interned uint64

// NewInterned makes instance i.
func NewInterned(i int) any {
	interned++
	return &Interned{h: unique.Make([4]uint64{interned})}
}
