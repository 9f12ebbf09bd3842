// Package cpuname names the CPU as Go's testing package names it on its
// "cpu:" line, which internal/sysinfo computes and no exported package
// exposes. It is a package of its own because it needs a Go assembly
// function (CPUID), which a package using cgo cannot hold.
package cpuname

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
)

// Name is the CPU's name as Go's testing package prints it on its "cpu:"
// line (internal/sysinfo.CPUName), so that benchstat puts memprof's
// benchmark lines and go test's from one machine in one configuration:
// on amd64 the processor's brand string (CPUID leaves
// 0x80000002-0x80000004, leading spaces and everything from the first
// NUL byte removed, trailing spaces kept); where there is none, the
// "model name" of the first CPU in Linux's /proc/cpuinfo, with its "cpu
// MHz" appended where the name holds no frequency; "" elsewhere.
var Name = sync.OnceValue(func() string {
	if name := cpuBrand(); name != "" {
		return name
	}
	if runtime.GOOS != "linux" {
		return ""
	}
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	// Like Go, read the first 512 bytes: enough to hold the first CPU.
	buf := make([]byte, 512)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF {
		return ""
	}
	return cpuInfoName(buf[:n])
})

// cpuInfoName is the CPU name in the text of /proc/cpuinfo as Go's
// internal/sysinfo reads it: the last "model name" (or "Model Name"),
// followed by " @ " and the "cpu MHz" and "MHz" where the name says
// neither GHz nor MHz; "" without a model name.
func cpuInfoName(cpuinfo []byte) string {
	var model, mhz string
	sc := bufio.NewScanner(bytes.NewReader(cpuinfo))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ": ")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "Model Name", "model name":
			model = v
		case "CPU MHz", "cpu MHz":
			mhz = v
		}
	}
	switch {
	case model == "", mhz == "", strings.Contains(model, "GHz"), strings.Contains(model, "MHz"):
		return model
	}
	return model + " @ " + mhz + "MHz"
}

// brandString is the processor brand string held by the registers of
// CPUID leaves 0x80000002-0x80000004 (regs, in the order eax, ebx, ecx,
// edx of each leaf, each register little-endian), as Go's internal/cpu.Name
// trims it: leading spaces removed, cut at the first NUL byte.
func brandString(regs [12]uint32) string {
	data := make([]byte, 0, 4*len(regs))
	for _, r := range regs {
		data = append(data, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
	}
	data = bytes.TrimLeft(data, " ")
	if i := bytes.IndexByte(data, 0); i >= 0 {
		data = data[:i]
	}
	return string(data)
}
