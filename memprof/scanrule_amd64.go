package memprof

import "golang.org/x/sys/cpu"

// cpuHas reports whether the CPU has feature, one of denseScanFeatures,
// and the operating system keeps its registers (as the runtime's
// internal/cpu checks it).
func cpuHas(feature string) bool {
	switch feature {
	case "avx512vl":
		return cpu.X86.HasAVX512VL
	case "avx512bw":
		return cpu.X86.HasAVX512BW
	case "gfni":
		return cpu.X86.HasAVX512GFNI
	case "avx512bitalg":
		return cpu.X86.HasAVX512BITALG
	case "avx512dq":
		return cpu.X86.HasAVX512DQ
	case "avx512vbmi":
		return cpu.X86.HasAVX512VBMI
	}
	return false
}
