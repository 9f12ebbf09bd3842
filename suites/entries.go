package suites

import (
	"fmt"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// EntriesOf returns one entry per key, begun by start: unavailable for
// unavailable(key) when that is not zero, else completed by fill from
// impls[key]. It panics, naming who, when an available key has no Impl or
// an Impl's key is not available: the suite's table and its constructors
// have drifted apart.
func EntriesOf[I any](who string, keys []results.Key, start func(results.Key) Entry, unavailable func(results.Key) vocab.Why, impls map[results.Key]I, fill func(*Entry, I)) []Entry {
	used := map[results.Key]bool{}
	var out []Entry
	for _, k := range keys {
		e := start(k)
		if why := unavailable(k); !why.IsZero() {
			e.Unavailable = why
		} else {
			im, ok := impls[k]
			if !ok {
				panic(fmt.Sprintf("%s: %s is available but has no constructor", who, k))
			}
			used[k] = true
			fill(&e, im)
		}
		out = append(out, e)
	}
	for k := range impls {
		if !used[k] {
			panic(fmt.Sprintf("%s: constructor for %s, which the matrix does not offer (unavailable or unknown)", who, k))
		}
	}
	return out
}
