package pqtest

import (
	"os"
	"os/exec"
	"testing"

	"github.com/memprof/memprof/suites/internal/pqkit"
)

func TestMain(m *testing.M) { Main(m) }

// TestMainAppliesAll: with -pq.all, Main has applied it before the tests
// run (every vector), and without it a few vectors per kind are checked.
// This binary runs itself again with -pq.all, so go test proves both.
func TestMainAppliesAll(t *testing.T) {
	if *All != (pqkit.VectorsPerKind == 0) {
		t.Fatalf("-pq.all %v, VectorsPerKind %d: want 0 exactly when -pq.all is set", *All, pqkit.VectorsPerKind)
	}
	if *All {
		return
	}
	out, err := exec.Command(os.Args[0], "-test.run=^TestMainAppliesAll$", "-test.v", "-pq.all").CombinedOutput()
	if err != nil {
		t.Fatalf("this test with -pq.all: %v\n%s", err, out)
	}
}
