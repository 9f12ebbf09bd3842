package results

import (
	"slices"

	"github.com/memprof/memprof/vocab"
)

// Types returns the types of the rows of f, in the one ordering.
func (f *File) Types() []vocab.Type {
	var out []vocab.Type
	add := func(t vocab.Type) {
		if t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	for _, r := range f.Instances {
		add(r.Type)
	}
	for _, r := range f.Throughput {
		add(r.Type)
	}
	for _, u := range f.Unavailable {
		add(u.Type)
	}
	slices.SortFunc(out, func(a, b vocab.Type) int { return Compare(Key{Type: a}, Key{Type: b}) })
	return out
}

// Failed reports whether any row of f failed.
func (f *File) Failed() bool {
	return slices.ContainsFunc(f.Instances, func(r Row) bool { return r.Error != "" }) ||
		slices.ContainsFunc(f.Throughput, func(r ThroughputRow) bool { return r.Error != "" })
}
