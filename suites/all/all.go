// Package all registers every built-in suite. The blst suite registers its
// entries as unavailable, with the reason, in builds without cgo.
package all

import (
	_ "github.com/memprof/memprof/suites/blst"
	_ "github.com/memprof/memprof/suites/circl"
	_ "github.com/memprof/memprof/suites/gnark"
	_ "github.com/memprof/memprof/suites/scenarios"
)
