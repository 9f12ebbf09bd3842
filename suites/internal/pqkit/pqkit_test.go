package pqkit

import (
	"testing"
	"unsafe"
)

// Types built to test Clone: what it must copy and what it must refuse.
type (
	inner struct{ a [64]byte }
	outer struct {
		p    *inner
		q    *inner
		nilp *inner
		v    [2]uint64
	}
	withSlice   struct{ s []byte }
	deepPointer struct{ p *outer }
	withString  struct{ s string }
)

// TestClone checks that a clone holds the same values in objects of its
// own: the struct and each object it points to, two pointers to one object
// included (each gets its copy, as a constructor allocating them apart
// would), a nil pointer left nil.
func TestClone(t *testing.T) {
	shared := &inner{a: [64]byte{1}}
	src := &outer{p: shared, q: &inner{a: [64]byte{2}}, v: [2]uint64{3, 4}}
	c := Clone(src)
	switch {
	case c == src || c.p == src.p || c.q == src.q:
		t.Fatalf("clone shares memory with its source: %p %p %p", c, c.p, c.q)
	case c.p.a != src.p.a || c.q.a != src.q.a || c.v != src.v || c.nilp != nil:
		t.Fatalf("clone holds other values: %+v", c)
	}
	c.p.a[0] = 9
	if shared.a[0] != 1 {
		t.Error("writing the clone changed the source")
	}
	if unsafe.Sizeof(*c) != unsafe.Sizeof(*src) {
		t.Error("clone of another size")
	}
}

// TestCloneRefuses checks that Clone panics on what it cannot copy without
// sharing: a slice, a pointer to an object that holds pointers, a string.
func TestCloneRefuses(t *testing.T) {
	for name, f := range map[string]func(){
		"slice":        func() { Clone(&withSlice{s: []byte{1}}) },
		"deep pointer": func() { Clone(&deepPointer{p: &outer{}}) },
		"string":       func() { Clone(&withString{s: "x"}) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("Clone did not panic")
				}
			}()
			f()
		})
	}
}

// TestBytes checks that an encoding is kept as one array of its length.
func TestBytes(t *testing.T) {
	b := []byte{1, 2, 3}
	p, ok := Bytes(b).(*[3]byte)
	if !ok || *p != [3]byte{1, 2, 3} {
		t.Fatalf("got %T %v, want a *[3]byte holding 1 2 3", Bytes(b), Bytes(b))
	}
	b[0] = 9
	if p[0] != 1 {
		t.Error("the array shares the slice's memory")
	}
}

// TestSetOf reads a set back from its parameter.
func TestSetOf(t *testing.T) {
	if got := SetOf(Set("ML-DSA-65").Param()); got != "ML-DSA-65" {
		t.Errorf("got %q, want ML-DSA-65", got)
	}
	if got := SetOf("population=10"); got != "" {
		t.Errorf("got %q for another parameter, want none", got)
	}
	if !SlowSet("SLH-DSA-SHAKE-128s") || SlowSet("SLH-DSA-SHA2-128f") || SlowSet("ML-DSA-65") {
		t.Error("SlowSet: want the SLH-DSA s sets alone")
	}
}

// TestHeldSize: a type's size with what its pointers point to, from the
// types' own sizes; a type that points to itself counts once.
func TestHeldSize(t *testing.T) {
	type matrix [4][256]int32
	type key struct {
		rho  [32]byte
		a    *matrix
		pair [2]*[64]byte
	}
	type node struct {
		next *node
		v    [16]byte
	}
	tests := []struct {
		name string
		got  uint64
		want uintptr
	}{
		{"pointer-free", HeldSize[[48]byte](), unsafe.Sizeof([48]byte{})},
		{"a struct pointing to a matrix and two arrays", HeldSize[key](), unsafe.Sizeof(key{}) + unsafe.Sizeof(matrix{}) + 2*unsafe.Sizeof([64]byte{})},
		{"a list", HeldSize[node](), unsafe.Sizeof(node{})},
		{"a slice's length is not its type's", HeldSize[[]byte](), unsafe.Sizeof([]byte{})},
	}
	for _, tt := range tests {
		if tt.got != uint64(tt.want) {
			t.Errorf("%s: got %d, want %d", tt.name, tt.got, tt.want)
		}
	}
}
