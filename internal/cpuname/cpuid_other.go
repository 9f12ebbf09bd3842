//go:build !amd64

package cpuname

// cpuBrand is "": Go's testing reads the brand string only on x86 (this
// package on amd64), and /proc/cpuinfo elsewhere.
func cpuBrand() string { return "" }
