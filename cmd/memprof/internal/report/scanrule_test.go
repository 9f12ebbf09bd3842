package report

import (
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
)

// TestMachinesScanRules: a review of several machines says that their GC
// scan bytes are not compared, and why, where their recorded rules differ
// or a machine records none; nothing where all record one rule.
func TestMachinesScanRules(t *testing.T) {
	// One row with scan bytes (known: with their resolution).
	machine := func(name string, rule measure.ScanRule) Machine {
		row := results.Row{Measurement: measure.Measurement{N: 1000, ScanBytesPerInstance: 8, ScanResolution: 0.01}}
		return Machine{Name: name, Results: &results.File{Env: measure.Env{ScanRule: rule}, Instances: []results.Row{row}}}
	}
	noScan := Machine{Name: "c", Results: &results.File{}}
	tests := []struct {
		name string
		ms   machines
		want []string // "" for no note
	}{
		{"one rule", machines{machine("a", measure.ScanDense), machine("b", measure.ScanDense)}, nil},
		{"different rules", machines{machine("a", measure.ScanDense), machine("b", measure.ScanToLastPointer)},
			[]string{"not compared", results.ScanRuleWhy, "**a** dense", "**b** last-pointer"}},
		{"one unknown", machines{machine("a", measure.ScanDense), machine("b", "")},
			[]string{"not compared", "cannot be told", "**b** unknown (not recorded)"}},
		{"unknown, without scan bytes", machines{noScan, machine("a", measure.ScanDense)}, nil},
		{"different rules after one without scan bytes", machines{noScan, machine("a", measure.ScanDense), machine("b", measure.ScanToLastPointer)},
			[]string{"not compared", "**a** dense", "**b** last-pointer"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.ms.scanRules()
			if tt.want == nil && got != "" {
				t.Errorf("got %q, want no note", got)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("got %q, want it to say %q", got, w)
				}
			}
		})
	}
}
