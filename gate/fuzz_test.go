package gate

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseBudgets feeds arbitrary YAML to Parse. It must never panic;
// a file it accepts must re-encode: Update, given every limit's own
// value as the measurement, rewrites it (or refuses, changing nothing)
// into a file that parses again to the same budgets, with the same
// selectors and limits (times may round up, as Update writes them).
func FuzzParseBudgets(f *testing.F) {
	files, err := filepath.Glob("../fixtures/budgets/*.yaml")
	if err != nil {
		f.Fatal(err)
	}
	files = append(files, "../memprof.budgets.yaml")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("version: 1\nbudgets:\n  - {select: {op: verify}, max_ns_per_op: '1.5ms'}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse("fuzz.yaml", data)
		if err != nil {
			return
		}
		rep := &Report{File: file}
		for _, b := range file.Budgets {
			for _, l := range b.Limits {
				rep.Outcomes = append(rep.Outcomes, Outcome{Budget: b, Limit: l, Status: Pass, Measured: l.Value})
			}
		}
		out, err := Update(file, rep, 1)
		if err != nil {
			return // refused: the file is left as it was
		}
		back, err := Parse("fuzz.yaml", out)
		if err != nil {
			t.Fatalf("Update wrote a file that does not parse: %v\nbefore:\n%s\nafter:\n%s", err, data, out)
		}
		if len(back.Budgets) != len(file.Budgets) {
			t.Fatalf("got %d budgets after Update, want %d", len(back.Budgets), len(file.Budgets))
		}
		for i, b := range file.Budgets {
			nb := back.Budgets[i]
			if nb.Select.String() != b.Select.String() || nb.Owner != b.Owner || nb.Reason != b.Reason || len(nb.Limits) != len(b.Limits) {
				t.Fatalf("budget %d changed: got %+v, want %+v", i, nb, b)
			}
			for j, l := range b.Limits {
				nl := nb.Limits[j]
				same := nl.Value == l.Value
				if l.Metric.IsTime() {
					same = nl.Value >= l.Value
				}
				if nl.Metric != l.Metric || !same {
					t.Fatalf("budget %d limit %s: got %v, want %v", i, l.Metric.Key(), nl.Value, l.Value)
				}
			}
		}
	})
}
