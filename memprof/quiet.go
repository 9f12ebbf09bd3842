package memprof

// Quiet once kept the children of one run out of each other's GC mark
// readings by stopping the others (SIGSTOP) while one read.
//
// Deprecated: children no longer stop each other. The collector's cost is
// now the CPU its own threads use (Result.GCCPUNsPerInstance), which
// another process computing beside it does not add to; a Quiet does
// nothing, and Child.Quiet is ignored.
type Quiet struct{}
