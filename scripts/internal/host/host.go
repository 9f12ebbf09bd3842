// Package host holds what the scripts that time memprof need of the
// machine they run on: its load average, its Go version and a memprof
// binary built from this module.
package host

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// LoadAverage is /proc/loadavg's three load averages (1, 5 and 15
// minutes), or "unknown".
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// GoVersion is the version of the go command on PATH, which builds
// memprof, or the running program's when there is none.
func GoVersion() string {
	out, err := exec.Command("go", "env", "GOVERSION").Output()
	if err != nil {
		return runtime.Version()
	}
	return strings.TrimSpace(string(out))
}

// BuildMemprof builds cmd/memprof of this module into dir and returns the
// binary's path; the go command's output goes to w.
func BuildMemprof(ctx context.Context, dir string, w io.Writer) (string, error) {
	bin := filepath.Join(dir, "memprof")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/memprof/memprof/cmd/memprof")
	build.Stdout, build.Stderr = w, w
	return bin, build.Run()
}
