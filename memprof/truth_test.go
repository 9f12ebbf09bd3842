package memprof

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

var truthN = flag.Int("memprof.truth-n", 10_000, "`N` of the constructed-truth tests (TestConstructedTruth; .ci/run gives 100,000)")

// TestConstructedTruth builds and runs the tests of testdata/truth, a
// module of its own that measures, through the public API only and in
// child processes as the memprof command does, types built so that what
// their instances keep is known: instances made on worker goroutines
// (a handoff whose wait blocks, one whose wait does not, a pool of
// workers, a goroutine per part), growth shared among instances,
// objects only instances past the profiled ones have, sizes that follow
// the input, a sync.Pool, finalizers and cleanups, large objects of their
// own span, goroutines the instances keep running. Each is checked
// against the bytes, objects and slot its construction makes known.
func TestConstructedTruth(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a module of its own")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	cmd := exec.CommandContext(t.Context(), goTool, "test", "-count=1", "./...")
	cmd.Dir = filepath.Join("testdata", "truth")
	cmd.Env = append(os.Environ(), "MEMPROF_TRUTH_N="+strconv.Itoa(*truthN))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test in %s with N = %d: %v\n%s", cmd.Dir, *truthN, err, out)
	}
	t.Logf("%s", out)
}
