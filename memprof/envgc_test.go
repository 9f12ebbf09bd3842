package memprof

import (
	"runtime/debug"
	"testing"

	"github.com/memprof/memprof/measure"
)

// TestCollector: the collector is the last of greenteagc and nogreenteagc
// that GOEXPERIMENT names, else the Go version's default.
func TestCollector(t *testing.T) {
	exp := func(v string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "CGO_ENABLED", Value: "1"}, {Key: "GOEXPERIMENT", Value: v}}
	}
	tests := []struct {
		version  string
		settings []debug.BuildSetting
		want     measure.Collector
	}{
		{"go1.26.8", nil, measure.GreenTeaGC},
		{"go1.27.1", nil, measure.GreenTeaGC},
		{"go1.25.4", nil, measure.NoGreenTeaGC},
		{"go1.26rc1", nil, measure.GreenTeaGC},
		{"devel go1.27-4c5d3e2 Tue Nov 3 2026", nil, measure.GreenTeaGC},
		{"go1.26.8-X:nogreenteagc", exp("nogreenteagc"), measure.NoGreenTeaGC},
		{"go1.25.4-X:greenteagc", exp("greenteagc"), measure.GreenTeaGC},
		{"go1.26.8-X:nogreenteagc,jsonv2", exp("jsonv2, nogreenteagc"), measure.NoGreenTeaGC},
		{"go1.26.8", exp("nogreenteagc,greenteagc"), measure.GreenTeaGC},
		{"go1.26.8-X:jsonv2", exp("jsonv2"), measure.GreenTeaGC},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			if got := collector(tt.version, tt.settings); got != tt.want {
				t.Errorf("collector(%q, %v): got %s, want %s", tt.version, tt.settings, got, tt.want)
			}
		})
	}
}

// TestCurrentEnvGC: the environment names the collector this binary was
// built for, as the compiler's build tag says (run the test with
// GOEXPERIMENT=nogreenteagc to check the other).
func TestCurrentEnvGC(t *testing.T) {
	if got := CurrentEnv().GC; got != builtWith {
		t.Errorf("env.gc: got %q, want %q", got, builtWith)
	}
}
