package memprof

import (
	"testing"

	"github.com/memprof/memprof/internal/cpuname"
)

// TestCurrentEnvCPU wants the environment's CPU to be the name go test
// prints on its "cpu:" line (cpuname.Name, which its own test compares
// with go test's output).
func TestCurrentEnvCPU(t *testing.T) {
	if got, want := CurrentEnv().CPU, cpuname.Name(); got != want {
		t.Errorf("CurrentEnv().CPU: got %q, want %q", got, want)
	}
}
