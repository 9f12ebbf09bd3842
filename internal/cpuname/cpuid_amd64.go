package cpuname

// cpuid executes the CPUID instruction with eax and ecx as its inputs
// (cpuid_amd64.s).
func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// cpuBrand is the processor brand string (brandString), or "" where the
// processor has no leaf 0x80000004.
func cpuBrand() string {
	if maxExt, _, _, _ := cpuid(0x80000000, 0); maxExt < 0x80000004 {
		return ""
	}
	var regs [12]uint32
	for i := range 3 {
		regs[4*i], regs[4*i+1], regs[4*i+2], regs[4*i+3] = cpuid(0x80000002+uint32(i), 0)
	}
	return brandString(regs)
}
