package memprof

import "golang.org/x/sys/cpu"

// cpuFeatures are the features of denseScanFeatures this CPU has with the
// operating system keeping their registers (as the runtime's internal/cpu
// checks it); x/sys/cpu has read them before this package initializes.
var cpuFeatures = map[string]bool{
	"avx512vl":     cpu.X86.HasAVX512VL,
	"avx512bw":     cpu.X86.HasAVX512BW,
	"gfni":         cpu.X86.HasAVX512GFNI,
	"avx512bitalg": cpu.X86.HasAVX512BITALG,
	"avx512dq":     cpu.X86.HasAVX512DQ,
	"avx512vbmi":   cpu.X86.HasAVX512VBMI,
}

// cpuHas reports whether the CPU has feature, one of denseScanFeatures,
// and the operating system keeps its registers.
func cpuHas(feature string) bool { return cpuFeatures[feature] }
