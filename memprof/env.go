package memprof

import (
	"bufio"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/memprof/memprof/model"
)

// CurrentEnv describes this process and machine: the Go version and
// platform, GOMAXPROCS, the CPU, whether cgo is on, the garbage
// collector (env.gc: from the build settings' GOEXPERIMENT, else the
// default of this Go version), and the version of each module in modules
// (module paths) that the binary's build info lists.
func CurrentEnv(modules ...string) model.Env {
	e := model.Env{
		GoVersion:  runtime.Version(),
		GOOS:       runtime.GOOS,
		GOARCH:     runtime.GOARCH,
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		NumCPU:     runtime.NumCPU(),
		CPU:        cpuModel(),
		Cgo:        cgoEnabled,
		Modules:    map[string]string{},
		GC:         currentCollector(),
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if slices.Contains(modules, m.Path) {
				v := m.Version
				if m.Replace != nil {
					v = m.Replace.Version
				}
				e.Modules[m.Path] = v
			}
		}
	}
	return e
}

// cpuModel reads the CPU model name on Linux; elsewhere it returns "".
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
