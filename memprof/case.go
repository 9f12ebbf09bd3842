package memprof

import (
	"fmt"
	"io"

	"github.com/memprof/memprof/measure"
)

// Case is what the engine measures: a way to make instance i of some type
// the way a real program would. The memprof command's own cases and
// users' tests build the same Case.
type Case struct {
	// Name identifies the case in errors and results.
	Name string
	// New makes instance i and returns it. Every call must return a new,
	// distinct object (a pointer, or a value the engine boxes); the engine
	// keeps all N alive until the heap profile is written. Exactly one of
	// New, NewSlice, NewAll and NewOne is set.
	New func(i int) any
	// NewSlice makes all n instances at once in one contiguous slice ([]T)
	// and returns it: the "slice" layout.
	NewSlice func(n int) any
	// NewAll makes a whole structure holding n instances (a map, a cache,
	// a pool) and returns it: the "collection" layout, for cases whose
	// cost per instance includes the structure around the instances.
	NewAll func(n int) any
	// NewOne makes the one object of a case that exists once per process
	// and takes long to build, such as a library's KZG context: the
	// "single" layout (see one.go). N is 1 and there is no warm-up; the
	// engine builds it once per pass (twice in all), so a constructor of
	// an object a library allows only once per process releases the
	// previous one first. Its build time is Result.BuildNs.
	NewOne func() any
	// SizeOf, if not zero, is reported as the representation's size
	// instead of the one derived from the instances' type (useful for
	// collections, where it is the size of one entry).
	SizeOf uintptr
	// Prepare, if set, runs once before anything is measured, with
	// profiling off: build input vectors here. What it allocates is not
	// attributed to the instances.
	Prepare func(n int) error
}

// Options control a measurement.
type Options struct {
	// N is the number of instances; default DefaultN.
	N int
	// Warmup is how many instances are made and dropped before measuring,
	// so that one-time lazy initialisation (a library's tables) is not
	// charged to the instances. (The runtime's type-assertion caches,
	// which it builds on a random miss, need none: the engine counts them
	// as the runtime's records.) A negative value, the
	// default, means automatic: up to min(N, 10,000) instances or 2 s,
	// whichever comes first (at least 2).
	Warmup int
	// Profile, if set, receives the raw heap profile the sites were read
	// from (gzip-compressed protobuf, openable with go tool pprof): of the
	// profiled pass's 2,048 instances and the 512 beside them (below
	// their own frame) when the sites were extended to N, of all N
	// otherwise (Result.AttributedN).
	Profile io.Writer

	// nGiven records that N was set (by the N option), so that a case of
	// one object can refuse an N other than 1 without refusing the
	// default.
	nGiven bool

	// SkipGC leaves out the GC pass, the collector's share (scan bytes
	// and mark time), and its 15 forced collections: for a test that
	// checks bytes and objects only. The GC figures are then absent (no
	// resolution, no samples: tables show n/a).
	SkipGC bool

	// profileAll profiles all N instances, never fewer (see
	// attributionPlan): for the tests that compare the two.
	profileAll bool

	// wholeProcess says that the measurement has the process to itself
	// (ServeChild's child): every object its builds add to the heap is the
	// instances', on whatever goroutine it was allocated. Otherwise only
	// those allocated below the engine's constructor frames are
	// attributed to a site, and what else the live heap holds is the
	// (unattributed) site.
	wholeProcess bool
}

// DefaultN is the number of instances measured when no N is given.
const DefaultN = 100_000

// Option sets one of the Options.
type Option func(*Options)

// N sets the number of instances.
func N(n int) Option { return func(o *Options) { o.N, o.nGiven = n, true } }

// Warmup sets the number of instances made and dropped before measuring.
func Warmup(n int) Option { return func(o *Options) { o.Warmup = n } }

// KeepProfile copies the raw heap profile to w.
func KeepProfile(w io.Writer) Option { return func(o *Options) { o.Profile = w } }

// SkipGC leaves out the GC pass (see Options.SkipGC).
func SkipGC() Option { return func(o *Options) { o.SkipGC = true } }

func buildOptions(opts []Option) Options {
	o := Options{N: DefaultN, Warmup: -1}
	for _, f := range opts {
		f(&o)
	}
	return o
}

func (c *Case) check(o Options) error {
	if c.Name == "" {
		return fmt.Errorf("case has no name")
	}
	set := 0
	for _, f := range []bool{c.New != nil, c.NewSlice != nil, c.NewAll != nil, c.NewOne != nil} {
		if f {
			set++
		}
	}
	if set != 1 {
		return fmt.Errorf("case %s: exactly one of New, NewSlice, NewAll and NewOne must be set", c.Name)
	}
	if err := c.checkOne(o); err != nil {
		return err
	}
	if o.N <= 0 {
		return fmt.Errorf("case %s: N must be positive, got %d", c.Name, o.N)
	}
	return nil
}

// Layout names how the case holds its instances: measure.Pointer for New,
// measure.Slice for NewSlice, measure.Collection for NewAll.
func (c *Case) Layout() measure.Layout {
	switch {
	case c.NewSlice != nil:
		return measure.Slice
	case c.NewAll != nil:
		return measure.Collection
	case c.NewOne != nil:
		return measure.Single
	}
	return measure.Pointer
}

// newMany is the constructor that makes all n instances at once, if any:
// NewSlice, NewAll, or NewOne (n is then 1).
func (c *Case) newMany() func(n int) any {
	switch {
	case c.NewSlice != nil:
		return c.NewSlice
	case c.NewOne != nil:
		return c.oneAsMany
	}
	return c.NewAll
}
