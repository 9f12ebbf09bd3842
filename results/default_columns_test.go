package results

import (
	"slices"
	"testing"
)

// TestDefaultTableColumns: the terminal table's default columns are the
// few a reader needs, each also a column of the wide table (InTable):
// for instances type, lib, repr, layout, B/instance, allocs/instance,
// the collector's scan bytes and CPU time, and slot (the table adds its
// note); for operations their key, the median
// time and quartiles, and the allocations.
func TestDefaultTableColumns(t *testing.T) {
	for _, c := range Columns {
		if c.Show&InDefaultTable != 0 && c.Show&InTable == 0 {
			t.Errorf("column %s is a default column of the terminal table but not InTable", c.Name)
		}
	}
	labels := func(cols []Column) []string {
		var out []string
		for _, c := range cols {
			out = append(out, c.Label)
		}
		return out
	}
	tests := []struct {
		kind string
		got  []Column
		want []string
	}{
		{"instance", InstanceColumns(InDefaultTable), []string{"type", "lib", "repr", "layout", "B/instance", "allocs/instance", "GC scan B", "GC CPU/cycle", "slot"}},
		{"throughput", ThroughputColumns(InDefaultTable), []string{"type", "lib", "repr", "op", "batch", "time/op", "Q1 – Q3", "B/op", "allocs/op"}},
	}
	for _, tt := range tests {
		if got := labels(tt.got); !slices.Equal(got, tt.want) {
			t.Errorf("%s: default columns got %q, want %q", tt.kind, got, tt.want)
		}
	}
}
