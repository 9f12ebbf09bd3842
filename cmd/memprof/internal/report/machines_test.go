package report

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
)

// twoMachines returns the fixture as measured on an amd64 runner, and a
// copy "measured" on an arm64 runner with another Go version, where the
// circl projective G1 takes 8 B more per instance, the gnark compressed
// G2 was not measured, and every time is 1.5 times longer. The test's
// construction makes the truth of the review known.
func twoMachines(t *testing.T) []Machine {
	t.Helper()
	a, b := loadFixture(t), loadFixture(t)
	a.Env.Machine, a.Env.CPU, a.Env.GoVersion = "amd64-runner", "Intel(R) Xeon(R) Processor", "go1.26.8" // not where the fixture was measured
	b.Env.Machine, b.Env.GOARCH, b.Env.GoVersion, b.Env.CPU = "arm64-runner", "arm64", "go1.25.9", "Neoverse-N1"
	var kept []results.Row
	for _, r := range b.Instances {
		switch r.Key.String() {
		case "G1/circl/projective/pointer":
			r.BytesPerInstance += 8
		case "G2/gnark/compressed/pointer":
			continue
		}
		kept = append(kept, r)
	}
	b.Instances = kept
	for i := range b.Throughput {
		tr := &b.Throughput[i]
		for j := range tr.SamplesNs {
			tr.SamplesNs[j] *= 1.5
		}
		tr.NsPerOpMedian, tr.NsPerOpQ1, tr.NsPerOpQ3 = tr.NsPerOpMedian*1.5, tr.NsPerOpQ1*1.5, tr.NsPerOpQ3*1.5
	}
	if err := b.Validate(); err != nil {
		t.Fatal(err)
	}
	return NameMachines([]string{"ci/amd64.json", "ci/arm64.json"}, []*results.File{a, b})
}

func TestReviewOfSeveralMachines(t *testing.T) {
	ms := twoMachines(t)
	files, err := Render(ms[0].Results, Options{Source: "ci/amd64.json", Machines: ms})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "README.machines.md", files[0].Data)
	readme := regexp.MustCompile(` +`).ReplaceAllString(string(files[0].Data), " ") // the tables' padding

	// Every machine's results are in the review.
	i := slices.IndexFunc(files, func(f File) bool { return f.Name == "results-arm64-runner.json" })
	if i < 0 {
		t.Fatalf("no results-arm64-runner.json among %d files", len(files))
	}
	var want bytes.Buffer
	if err := ms[1].Results.WriteJSON(&want); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(files[i].Data, want.Bytes()) {
		t.Errorf("results-arm64-runner.json is not the arm64 results file")
	}

	// The cases that differ, and nothing else, are in the table, with
	// what the machines differ in.
	section := readme[strings.Index(readme, "### Differs across machines"):strings.Index(readme, "### Time per operation on each machine")]
	for _, w := range []string{
		"| G1/circl/projective/pointer | 144 B, 1 allocs | 152 B, 1 allocs | cpu (amd64-runner Intel(R) Xeon(R) Processor, arm64-runner Neoverse-N1); goarch (amd64-runner amd64, arm64-runner arm64); go_version (amd64-runner go1.26.8, arm64-runner go1.25.9) |",
		"| G2/gnark/compressed/pointer | 96 B, 1 allocs | not measured | not measured on arm64-runner |",
	} {
		if !strings.Contains(section, w) {
			t.Errorf("differs table lacks %q:\n%s", w, section)
		}
	}
	if n := strings.Count(section, "\n| G"); n != 2 {
		t.Errorf("differs table has %d rows, want the 2 cases that differ:\n%s", n, section)
	}
	// In G1's table the circl row is tagged, followed by arm64's.
	for _, w := range []string{
		"| amd64-runner | circl | projective | pointer | 144 |",
		"| arm64-runner | circl | projective | pointer | 152 |",
		"| | blst | affine | pointer | 96 |",
		"### amd64-runner\n\nFrom `ci/amd64.json`.",
		"### arm64-runner\n\nFrom `ci/arm64.json`.",
		"| machine | arm64-runner |",
		"Written by `memprof report` from `ci/amd64.json` (machine **amd64-runner**), `ci/arm64.json` (machine **arm64-runner**)",
	} {
		if !strings.Contains(readme, w) {
			t.Errorf("README lacks %q", w)
		}
	}
}

func TestNameMachines(t *testing.T) {
	rs := func(machine string) *results.File { return &results.File{Env: measure.Env{Machine: machine}} }
	tests := []struct {
		name  string
		files []string
		rs    []*results.File
		want  []string
	}{
		{"by env.machine", []string{"a.json", "b.json"}, []*results.File{rs("amd64"), rs("arm64")}, []string{"amd64", "arm64"}},
		{"older files: by file", []string{"ci/go1.25.json", "ci/go1.26.json"}, []*results.File{rs(""), rs("")}, []string{"go1.25", "go1.26"}},
		{"one runner twice", []string{"cgo.json", "nocgo.json"}, []*results.File{rs("runner"), rs("runner")}, []string{"runner (cgo.json)", "runner (nocgo.json)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, m := range NameMachines(tt.files, tt.rs) {
				got = append(got, m.Name)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestNameMachinesDistinct: machines that share a name (CI artifacts all
// called results.json from runners of one host name, one file given
// twice, names that coincide once made safe for a file name) get names
// and results files of their own, told apart by their paths.
func TestNameMachinesDistinct(t *testing.T) {
	tests := []struct {
		name     string
		files    []string
		machines []string // env.machine of each
		want     []string
	}{
		{"distinct hosts", []string{"a.json", "b.json"}, []string{"amd64", "arm64"}, []string{"amd64", "arm64"}},
		{"one host, CI artifacts", []string{"ci/amd64/results.json", "ci/arm64/results.json", "ci/riscv/results.json"}, []string{"host", "host", "host"},
			[]string{"host (amd64/results.json)", "host (arm64/results.json)", "host (riscv/results.json)"}},
		{"one host, paths that differ further up", []string{"run1/x/results.json", "run2/x/results.json"}, []string{"host", "host"},
			[]string{"host (run1/x/results.json)", "host (run2/x/results.json)"}},
		{"no host recorded, one file name", []string{"a/results.json", "b/results.json"}, []string{"", ""},
			[]string{"results (a/results.json)", "results (b/results.json)"}},
		{"one file twice", []string{"r.json", "r.json"}, []string{"host", "host"}, []string{"host (r.json)", "host (r.json) #2"}},
		{"names alike once safe for a file", []string{"a.json", "b.json"}, []string{"a b", "a_b"}, []string{"a b", "a_b #2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rss []*results.File
			for _, m := range tt.machines {
				rss = append(rss, &results.File{Env: measure.Env{Machine: m}})
			}
			ms := NameMachines(tt.files, rss)
			var got []string
			files := map[string]bool{}
			for _, m := range ms {
				got = append(got, m.Name)
				files[MachineFile(m.Name)] = true
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got names %q, want %q", got, tt.want)
			}
			if len(files) != len(ms) {
				t.Errorf("the machines' results files %v are not one per machine", files)
			}
		})
	}
}

// TestReviewComparesN: a case measured at different N on two machines of
// one environment is listed, with both N, and the N is what they differ
// in (not "nothing recorded").
func TestReviewComparesN(t *testing.T) {
	a, b := loadFixture(t), loadFixture(t)
	a.Env.Machine, b.Env.Machine = "one", "two"
	k := a.Instances[0].Key
	n := a.Instances[0].N
	b.Instances[0].N = 5 * n
	// At five times the N, the engine's resolutions per instance are a fifth.
	for _, r := range []*float64{&b.Instances[0].OffheapResolution, &b.Instances[0].RSSResolution, &b.Instances[0].StackResolution,
		&b.Instances[0].HeapResolution, &b.Instances[0].ScanResolution, &b.Instances[0].GCMarkResolution, &b.Instances[0].GCCPUResolution} {
		*r /= 5
	}
	if err := b.Validate(); err != nil {
		t.Fatal(err)
	}
	files, err := Render(a, Options{Source: "one.json", Machines: []Machine{{Name: "one", Source: "one.json", Results: a}, {Name: "two", Source: "two.json", Results: b}}})
	if err != nil {
		t.Fatal(err)
	}
	readme := regexp.MustCompile(` +`).ReplaceAllString(string(files[0].Data), " ")
	section := readme[strings.Index(readme, "### Differs across machines"):]
	want := fmt.Sprintf("| %s | %s B, %s allocs at N = %d | %s B, %s allocs at N = %d | N (one %d, two %d) |", k,
		units.FormatFigure(a.Instances[0].BytesPerInstance), units.FormatFigure(a.Instances[0].AllocsPerInstance), n,
		units.FormatFigure(b.Instances[0].BytesPerInstance), units.FormatFigure(b.Instances[0].AllocsPerInstance), 5*n, n, 5*n)
	if !strings.Contains(section, want) {
		t.Errorf("differs table lacks %q:\n%s", want, section)
	}
	if strings.Contains(section, "nothing recorded") {
		t.Errorf("differs table says nothing recorded for a case measured at two N:\n%s", section)
	}
}
