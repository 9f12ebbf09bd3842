package export

import (
	"bytes"
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
)

// TestParts: a dashboard export of one part holds the entries of that
// part's figures and no other, and the two parts together hold what the
// whole export does; the benchmark format takes no part.
func TestParts(t *testing.T) {
	rs := timed(t, 1, false)
	all := entriesOf(rs, All)
	byPart := map[Part][]ActionBenchmarkEntry{Memory: entriesOf(rs, Memory), Time: entriesOf(rs, Time)}
	if len(byPart[Memory]) == 0 || len(byPart[Time]) == 0 || len(byPart[Memory])+len(byPart[Time]) != len(all) {
		t.Fatalf("got %d memory and %d time entries, want both and %d together", len(byPart[Memory]), len(byPart[Time]), len(all))
	}
	// The units of the figures that move from run to run: times, and
	// figures read to a resolution.
	timeUnits := map[string]bool{}
	for _, f := range results.Figures {
		if f.Dashboard != "" && (f.Unit == units.Nanoseconds || f.Judge != measure.JudgeExact) {
			timeUnits[f.Dashboard] = true
		}
	}
	for part, entries := range byPart {
		for _, e := range entries {
			if timeUnits[e.Unit] != (part == Time) {
				t.Errorf("%s part holds %s", part, e.Name)
			}
		}
	}
	tests := []struct {
		part   Part
		has    []string
		hasNot []string
	}{
		{Memory, []string{`"bytes-per-instance"`, `"allocs-per-instance"`}, []string{`"latency"`, "op=verify", `"scan-bytes-per-instance"`}},
		{Time, []string{`"latency"`, "op=verify", `"scan-bytes-per-instance"`}, []string{`"bytes-per-instance"`, `"allocs-per-instance"`}},
	}
	for _, tt := range tests {
		var buf bytes.Buffer
		if err := WritePart(&buf, rs, BencherMetricFormat, tt.part); err != nil {
			t.Fatal(err)
		}
		for _, s := range tt.has {
			if !strings.Contains(buf.String(), s) {
				t.Errorf("bencher %s: lacks %s:\n%s", tt.part, s, buf.String())
			}
		}
		for _, s := range tt.hasNot {
			if strings.Contains(buf.String(), s) {
				t.Errorf("bencher %s: holds %s:\n%s", tt.part, s, buf.String())
			}
		}
	}
	if err := WritePart(new(bytes.Buffer), rs, Benchfmt, Memory); err == nil {
		t.Error("benchfmt with a part: got no error")
	}
}
