package render

import (
	"bytes"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/memprof/memprof/heapscan"
)

// builtSummary summarizes a profile of two one-frame samples with the
// given sample types and values (made here: no fixture has them).
func builtSummary(t *testing.T, types []string, period, duration int64, a, b []int64) *heapscan.Summary {
	t.Helper()
	p := &profile.Profile{PeriodType: &profile.ValueType{Type: "space", Unit: "bytes"}, Period: period, DurationNanos: duration}
	for _, ty := range types {
		p.SampleType = append(p.SampleType, &profile.ValueType{Type: ty, Unit: "bytes"})
	}
	for i, v := range [][]int64{a, b} {
		f := &profile.Function{ID: uint64(i + 1), Name: []string{"main.grew", "main.shrank"}[i]}
		l := &profile.Location{ID: f.ID, Line: []profile.Line{{Function: f}}}
		p.Function, p.Location = append(p.Function, f), append(p.Location, l)
		p.Sample = append(p.Sample, &profile.Sample{Location: []*profile.Location{l}, Value: v, NumLabel: map[string][]int64{"bytes": {64}}})
	}
	s, err := heapscan.Summarize(p, heapscan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// heapscanSummary reads a fixture profile for the golden tests.
func heapscanSummary(t *testing.T, name string, opts heapscan.Options) *heapscan.Summary {
	t.Helper()
	h, err := heapscan.ReadFile("../../../../fixtures/profiles/"+name, heapscan.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := h.Summarize(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestHeapscanGolden renders the fixtures in every format; golden files
// are named after the profile and the options (-update rewrites them).
func TestHeapscanGolden(t *testing.T) {
	before := heapscanSummary(t, "before.pb.gz", heapscan.Options{})
	after := heapscanSummary(t, "after.pb.gz", heapscan.Options{})
	diff, err := heapscan.Diff(before, after)
	if err != nil {
		t.Fatal(err)
	}
	sampled := heapscanSummary(t, "sampled.pb.gz", heapscan.Options{})
	top := heapscanSummary(t, "before.pb.gz", heapscan.Options{GroupBy: "site"})
	top.Top(3)
	all4 := []string{"alloc_objects", "alloc_space", "inuse_objects", "inuse_space"}
	delta := builtSummary(t, all4, 524288, 30e9, []int64{50, 3200, 50, 3200}, []int64{0, 0, -20, -1280})
	spaceOnly := builtSummary(t, []string{"inuse_space"}, 524288, 0, []int64{3200}, []int64{640})
	cases := []struct {
		name string
		s    *heapscan.Summary
		v    HeapscanView
	}{
		{"delta", delta, HeapscanView{Source: "delta.pb.gz"}},
		{"inuse-space-only", spaceOnly, HeapscanView{Source: "space.pb.gz", Instances: 10}},
		{"before", before, HeapscanView{Source: "before.pb.gz"}},
		{"before-instances-1000", before, HeapscanView{Source: "before.pb.gz", Instances: 1000}},
		{"diff-before-after", diff, HeapscanView{Source: "after.pb.gz", Base: "before.pb.gz"}},
		{"sampled", sampled, HeapscanView{Source: "sampled.pb.gz"}},
		{"before-site-top3", top, HeapscanView{Source: "before.pb.gz"}},
	}
	renderers := []struct {
		ext string
		f   func(*bytes.Buffer, *heapscan.Summary, HeapscanView) error
	}{
		{"txt", func(b *bytes.Buffer, s *heapscan.Summary, v HeapscanView) error {
			return HeapscanTableFit(b, s, v, 0, Plain)
		}},
		{"md", func(b *bytes.Buffer, s *heapscan.Summary, v HeapscanView) error { return HeapscanMarkdown(b, s, v) }},
		{"csv", func(b *bytes.Buffer, s *heapscan.Summary, v HeapscanView) error { return HeapscanCSV(b, s, v) }},
		{"json", func(b *bytes.Buffer, s *heapscan.Summary, v HeapscanView) error { return s.WriteJSON(b, v.Instances) }},
	}
	for _, c := range cases {
		for _, r := range renderers {
			t.Run(c.name+"."+r.ext, func(t *testing.T) {
				var b bytes.Buffer
				if err := r.f(&b, c.s, c.v); err != nil {
					t.Fatal(err)
				}
				golden(t, "heapscan-"+c.name+"."+r.ext, b.Bytes())
			})
		}
	}
}
