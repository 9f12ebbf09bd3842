package memprof

import (
	"bufio"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

// Env describes where a measurement was made, so that results from
// different machines are not compared by accident.
type Env struct {
	GoVersion  string `json:"go_version"`
	GOOS       string `json:"goos"`
	GOARCH     string `json:"goarch"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	NumCPU     int    `json:"num_cpu"`
	CPU        string `json:"cpu"`
	Cgo        bool   `json:"cgo"`
	// Modules maps the measured libraries' module paths to their versions,
	// from the binary's build info.
	Modules map[string]string `json:"modules,omitempty"`
}

// TrackedModules are the module paths whose versions Env records.
var TrackedModules = map[string]string{
	"github.com/supranational/blst":     "blst",
	"github.com/consensys/gnark-crypto": "gnark-crypto",
	"github.com/cloudflare/circl":       "circl",
}

// CurrentEnv describes this process and machine.
func CurrentEnv() Env {
	e := Env{
		GoVersion:  runtime.Version(),
		GOOS:       runtime.GOOS,
		GOARCH:     runtime.GOARCH,
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		NumCPU:     runtime.NumCPU(),
		CPU:        cpuModel(),
		Cgo:        cgoEnabled,
		Modules:    map[string]string{},
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if _, ok := TrackedModules[m.Path]; ok {
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
