//go:build !amd64

package memprof

// cpuHas reports no feature: off amd64 the dense scan path does not exist
// and scanRule does not ask.
func cpuHas(string) bool { return false }
