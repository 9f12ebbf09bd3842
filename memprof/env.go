package memprof

import (
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"time"

	"github.com/memprof/memprof/internal/cpuname"
	"github.com/memprof/memprof/measure"
)

// CurrentEnv describes this process and machine: the Go version and
// platform, GOMAXPROCS, the CPU (named as go test's "cpu:" line names it:
// cpuname.Name), whether cgo is on, the garbage collector (env.gc: from
// the build settings' GOEXPERIMENT, else the default of this Go
// version), the rule it counts scan bytes by (env.scan_rule:
// currentScanRule), the version of each module in modules
// (module paths) that the binary's build info lists, the host name as the
// machine, the binary's VCS revision (if the build stamped one) as the
// commit, the current time (UTC) as the time the measurement started, and
// the load average now (LoadAverage) as the run's starting load.
func CurrentEnv(modules ...string) measure.Env {
	e := measure.Env{
		GoVersion:  runtime.Version(),
		GOOS:       runtime.GOOS,
		GOARCH:     runtime.GOARCH,
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		NumCPU:     runtime.NumCPU(),
		CPU:        cpuname.Name(),
		Cgo:        cgoEnabled,
		Time:       time.Now().UTC().Format(time.RFC3339),
		GC:         currentCollector(),
		LoadStart:  LoadAverage(),
	}
	e.ScanRule, e.ScanRuleBasis = currentScanRule()
	e.Machine, _ = os.Hostname()
	e.Commit, _ = VCSRevision()
	e.Modules = ModuleVersions(modules...)
	return e
}

// ModuleVersions returns the version of each module of modules (module
// paths) that the binary's build info lists, a replacement's version
// where the module is replaced. A module the build does not hold (a cgo
// binding in a build without cgo) has no entry.
func ModuleVersions(modules ...string) map[string]string {
	out := map[string]string{}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return out
	}
	for _, m := range bi.Deps {
		if slices.Contains(modules, m.Path) {
			v := m.Version
			if m.Replace != nil {
				v = m.Replace.Version
			}
			out[m.Path] = v
		}
	}
	return out
}

// VCSRevision returns the commit the binary was built from and whether
// the work tree had changes, from the build info's VCS stamp (go build
// stamps it in a checkout unless -buildvcs=false); "" when there is none.
func VCSRevision() (revision string, modified bool) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "", false
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	return revision, modified
}
