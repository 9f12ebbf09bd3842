package suitetest

import (
	"math"
	"math/big"
	"runtime"
	"testing"
)

// The types the walker is tested on, each built to exercise one rule of
// the allocator: a pointer-free array, a wrapper around a pointer (two
// objects), a big.Int and its words, pointers shared and into an object
// already counted, and a slice of pointers above 512 bytes (a malloc
// header).
type (
	wrapper  struct{ p *[128]byte }
	twoBigs  struct{ a, b *big.Int }
	shared   struct{ a, b *[96]byte }
	interior struct {
		s []uint64
		p *uint64
	}
	headered struct{ ps []*[48]byte }
)

// TestReachableAgainstTheRuntime builds each value many times and
// compares what the walker counts of one with what the runtime allocated
// per build (runtime.MemStats' Mallocs and TotalAlloc, which count slots),
// so the walker's slot arithmetic is the allocator's.
func TestReachableAgainstTheRuntime(t *testing.T) {
	tests := []struct {
		name  string
		build func() any
	}{
		{"array", func() any { return new([96]byte) }},
		{"wrapper", func() any { return &wrapper{p: new([128]byte)} }},
		{"big.Int", func() any { return new(big.Int).SetBytes(make([]byte, 32)[:31:31]) }},
		{"two big.Ints", func() any {
			x := new(big.Int).Lsh(big.NewInt(1), 300)
			return &twoBigs{a: x, b: new(big.Int).Set(x)}
		}},
		{"shared", func() any { a := new([96]byte); return &shared{a: a, b: a} }},
		{"interior", func() any { s := make([]uint64, 40); return &interior{s: s, p: &s[7]} }},
		{"headered", func() any {
			h := &headered{ps: make([]*[48]byte, 80)}
			for i := range h.ps {
				h.ps[i] = new([48]byte)
			}
			return h
		}},
		{"large", func() any { return new([40000]byte) }},
		// Tiny objects: the runtime packs them into 16-byte blocks, which
		// MemStats counts whole; two 8-byte ones fill one.
		{"two tiny", func() any { return &struct{ a, b *[8]byte }{a: new([8]byte), b: new([8]byte)} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := Reachable(tt.build())
			if err != nil {
				t.Fatal(err)
			}
			const runs = 5000
			keep := make([]any, runs)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			for i := range keep {
				keep[i] = tt.build()
			}
			runtime.ReadMemStats(&after)
			runtime.KeepAlive(keep)
			objects := float64(after.Mallocs-before.Mallocs) / runs
			bytes := float64(after.TotalAlloc-before.TotalAlloc) / runs
			// The builds allocate nothing but what they return; another
			// goroutine's allocation during the loop is under 1/runs each.
			// Mallocs counts every tiny object; TotalAlloc the tiny blocks.
			if math.Abs(objects-float64(want.Objects+want.Tiny)) > 0.05 {
				t.Errorf("objects: runtime allocated %.2f per build, the walker counts %d and %d tiny (%v)", objects, want.Objects, want.Tiny, want.Sizes)
			}
			lo, hi := float64(want.Bytes+int64(want.TinyBlocks())*TinyBlock), float64(want.Bytes+int64(want.Tiny)*TinyBlock)
			if bytes < lo-8 || bytes > hi+8 {
				t.Errorf("bytes: runtime allocated %.1f per build, the walker counts %d and %d tiny objects of %d bytes: want %.0f to %.0f", bytes, want.Bytes, want.Tiny, want.TinyBytes, lo, hi)
			}
		})
	}
}

// TestReachableRefuses: what the walker cannot count exactly is an error,
// not a guess.
func TestReachableRefuses(t *testing.T) {
	for name, v := range map[string]any{
		"a map":         &struct{ m map[int]int }{m: map[int]int{1: 1}},
		"a boxed int":   &struct{ i any }{i: 12345},
		"a tiny object": new([4]byte),
		"a function":    &struct{ f func() }{f: func() {}},
		"a uintptr": &struct {
			p   uintptr
			pad [16]byte
		}{}, // counted: no pointer
	} {
		_, err := Reachable(v)
		if got, want := err != nil, name != "a uintptr"; got != want {
			t.Errorf("%s: got error %v, want an error %v", name, err, want)
		}
	}
}
