//go:build !goexperiment.greenteagc

package memprof

import "github.com/memprof/memprof/measure"

// builtWith is the collector the compiler built this test binary for, from
// the build tag the go command sets for each experiment it enables.
const builtWith = measure.NoGreenTeaGC
