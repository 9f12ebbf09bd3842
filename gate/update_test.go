package gate

import (
	"os"
	"strings"
	"testing"

	"github.com/memprof/memprof/results"
)

// TestUpdateKeepsComments rewrites fixtures/budgets/update.yaml against
// results.json and checks that exactly the value lines changed, to the
// measurements, and that every comment and other line is kept byte for
// byte.
func TestUpdateKeepsComments(t *testing.T) {
	rs := readFixture(t, checkResults)
	const path = "../fixtures/budgets/update.yaml"
	f := readBudgets(t, path)
	rep := Check(f, rs, CheckOptions{})
	if !rep.OK() && len(rep.Problems) > 0 {
		t.Fatalf("check: %v", rep.Problems)
	}
	out, err := Update(f, rep, 1.2)
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sig, pk := rs.Instances[1], rs.Instances[0]
	q, _, err := TimeFigure(&rs.Throughput[0])
	if err != nil {
		t.Fatal(err)
	}
	median := q.Median
	// line (1-based) -> the new line; all others unchanged.
	want := map[int]string{
		6:  "    max_bytes_per_instance: " + FormatSize(sig.BytesPerInstance) + "   # loose on purpose",
		7:  "    max_allocs_per_instance: " + FormatCount(sig.AllocsPerInstance),
		16: "    max_bytes_per_instance: " + FormatCount(pk.BytesPerInstance),
		18: "    max_ns_per_op: " + FormatDuration(median*1.2) + " # was too tight",
	}
	oldLines := strings.Split(string(src), "\n")
	newLines := strings.Split(string(out), "\n")
	if len(oldLines) != len(newLines) {
		t.Fatalf("line count: got %d, want %d", len(newLines), len(oldLines))
	}
	for i := range oldLines {
		w, changed := want[i+1]
		if !changed {
			w = oldLines[i]
		}
		if newLines[i] != w {
			t.Errorf("line %d: got %q, want %q", i+1, newLines[i], w)
		}
	}
	// The updated file parses and holds against the same results.
	f2, err := Parse(path, out)
	if err != nil {
		t.Fatalf("updated file does not parse: %v", err)
	}
	if rep2 := Check(f2, rs, CheckOptions{}); !rep2.OK() || rep2.Count(Warn) != 0 {
		t.Errorf("updated file: got %d failures, %d warnings, %d errors, problems %v; want all to hold", rep2.Count(Fail), rep2.Count(Warn), rep2.Count(Error), rep2.Problems)
	}
}

func TestUpdateRefuses(t *testing.T) {
	rs := readFixture(t, checkResults)
	for _, tt := range []struct {
		file, want string
	}{
		{"failed-case.yaml", "failed to measure"},
		{"no-match.yaml", "matches no measured case"},
	} {
		f := readBudgets(t, "../fixtures/budgets/"+tt.file)
		out, err := Update(f, Check(f, rs, CheckOptions{}), 1.2)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: got %d bytes, error %v; want an error containing %q", tt.file, len(out), err, tt.want)
		}
	}
	f := readBudgets(t, "../fixtures/budgets/pass.yaml")
	if _, err := Update(f, Check(f, rs, CheckOptions{}), 0.9); err == nil {
		t.Errorf("headroom 0.9: got no error, want one")
	}
	if _, err := Update(f, Check(f, &results.File{}, CheckOptions{}), 1.2); err == nil {
		t.Errorf("empty results: got no error, want one")
	}
}
