//go:build !unix

package memprof

// statm stands for /proc/self/statm, which only Unix systems (Linux)
// have: the resident set is unknown here.
type statm struct{}

func openStatm() statm        { return statm{} }
func (statm) close()          {}
func (statm) resident() int64 { return -1 }
