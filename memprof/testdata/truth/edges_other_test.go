//go:build !unix

package truth

import "github.com/memprof/memprof/memprof"

// edgeCases are issue 33's edge cases: unix only (syscall.Mmap).
var edgeCases = map[string]memprof.Case{}

func serveFresh() {}
