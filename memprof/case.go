package memprof

import (
	"fmt"
	"io"
)

// Case is what the engine measures: a way to make instance i of some type
// the way a real program would. The built-in suites and users' own tests
// build the same Case.
type Case struct {
	// Name identifies the case in errors and results.
	Name string
	// New makes instance i and returns it. Every call must return a new,
	// distinct object (a pointer, or a value the engine boxes); the engine
	// keeps all N alive until the heap profile is written. Exactly one of
	// New and NewSlice is set.
	New func(i int) any
	// NewSlice makes all n instances at once in one contiguous slice ([]T)
	// and returns it: the "slice" layout.
	NewSlice func(n int) any
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
	// so that one-time lazy initialisation is not charged to the
	// instances; default min(N, 16).
	Warmup int
	// Profile, if set, receives the raw heap profile (gzip-compressed
	// protobuf, openable with go tool pprof).
	Profile io.Writer
}

// DefaultN is the number of instances measured when no N is given.
const DefaultN = 100_000

// Option sets one of the Options.
type Option func(*Options)

// N sets the number of instances.
func N(n int) Option { return func(o *Options) { o.N = n } }

// Warmup sets the number of instances made and dropped before measuring.
func Warmup(n int) Option { return func(o *Options) { o.Warmup = n } }

// KeepProfile copies the raw heap profile to w.
func KeepProfile(w io.Writer) Option { return func(o *Options) { o.Profile = w } }

func buildOptions(opts []Option) Options {
	o := Options{N: DefaultN, Warmup: -1}
	for _, f := range opts {
		f(&o)
	}
	if o.Warmup < 0 {
		o.Warmup = min(o.N, 16)
	}
	return o
}

func (c *Case) check(o Options) error {
	if c.Name == "" {
		return fmt.Errorf("case has no name")
	}
	if (c.New == nil) == (c.NewSlice == nil) {
		return fmt.Errorf("case %s: exactly one of New and NewSlice must be set", c.Name)
	}
	if o.N <= 0 {
		return fmt.Errorf("case %s: N must be positive, got %d", c.Name, o.N)
	}
	return nil
}
