package render

import (
	"bytes"
	"testing"

	"github.com/memprof/memprof/heapscan"
)

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
	cases := []struct {
		name string
		s    *heapscan.Summary
		v    HeapscanView
	}{
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
		{"txt", func(b *bytes.Buffer, s *heapscan.Summary, v HeapscanView) error { return HeapscanTable(b, s, v) }},
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
