package report

import (
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
)

// TestEnvLoad: the review says the run's load averages and its CPU and
// wall time where the results record them, "unknown" where they do not,
// and that the machine was busy when the load passed its CPUs.
func TestEnvLoad(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, tt := range []struct {
		name             string
		env              measure.Env
		load, run        string
		busy             bool
		lineHas, lineNot string
	}{
		{name: "not recorded", env: measure.Env{GoVersion: "go1.26", NumCPU: 2},
			load: "unknown (not recorded)", run: "unknown (not recorded)", lineHas: "load average unknown (not recorded).", lineNot: "more work"},
		{name: "quiet", env: measure.Env{GoVersion: "go1.26", NumCPU: 2, LoadStart: f(0.5), LoadEnd: f(1.25), RunWallSeconds: f(60), RunCPUSeconds: f(45)},
			load: "0.50 at the start, 1.25 at the end", run: "45.00 s CPU over 60.00 s wall", lineHas: "load average 0.50 at the start, 1.25 at the end.", lineNot: "more work"},
		{name: "busy at the end", env: measure.Env{GoVersion: "go1.26", NumCPU: 2, LoadStart: f(1), LoadEnd: f(30.5), RunWallSeconds: f(60)},
			load: "1.00 at the start, 30.50 at the end", run: "60.00 s wall, CPU time unknown", busy: true, lineHas: "more work than its 2 CPUs"},
		{name: "end unknown", env: measure.Env{GoVersion: "go1.26", NumCPU: 2, LoadStart: f(3)},
			load: "3.00 at the start, unknown at the end", run: "unknown (not recorded)", busy: true, lineHas: "more work than its 2 CPUs"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := loadText(tt.env); got != tt.load {
				t.Errorf("load: got %q, want %q", got, tt.load)
			}
			if got := runText(tt.env); got != tt.run {
				t.Errorf("run: got %q, want %q", got, tt.run)
			}
			if got := busy(tt.env); got != tt.busy {
				t.Errorf("busy: got %v, want %v", got, tt.busy)
			}
			line := envLine(tt.env)
			if !strings.Contains(line, tt.lineHas) || tt.lineNot != "" && strings.Contains(line, tt.lineNot) {
				t.Errorf("line %q: want %q in it and not %q", line, tt.lineHas, tt.lineNot)
			}
		})
	}
}

// TestTradeoffTableContention: a time whose wall is three times its CPU
// time has the CPU time beside it; one whose wall is its CPU time has
// not.
func TestTradeoffTableContention(t *testing.T) {
	rs := withThroughput(loadFixture(t))
	rs.Throughput[0].CPUNsPerOpMedian = rs.Throughput[0].NsPerOpMedian / 3
	tb, ok := results.TradeoffOf(rs, "Signature")
	if !ok {
		t.Fatal("no trade-off of Signature")
	}
	table := tradeoffTable(tb)
	busy := 0
	for _, row := range table.Rows {
		lib, repr := row[0], row[1]
		for _, cell := range row[2:] {
			if strings.Contains(cell, "(CPU ") {
				busy++
				if lib != string(rs.Throughput[0].Lib) || repr != string(rs.Throughput[0].Repr) {
					t.Errorf("%s %s: got %q, want no CPU time beside a wall time equal to it", lib, repr, cell)
				}
			}
		}
	}
	if want := "(CPU " + units.FormatNs(rs.Throughput[0].CPUNsPerOpMedian) + ")"; busy != 1 || !tableHas(table.Rows, want) {
		t.Errorf("got %d cells with a CPU time, want 1 with %q: %q", busy, want, table.Rows)
	}
}

func tableHas(rows [][]string, s string) bool {
	for _, r := range rows {
		if strings.Contains(strings.Join(r, " "), s) {
			return true
		}
	}
	return false
}
