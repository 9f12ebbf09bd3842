package suitetest

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/memprof/memprof/internal/typeptr"
)

// Held is what the heap objects reachable from a value cost, counted by
// construction: every distinct object the value's pointers, slices and
// strings lead to (the value itself included when it is reached through
// a pointer), each in the slot the allocator gives it.
type Held struct {
	// Objects and Bytes count the objects with a slot of their own, Sizes
	// their slots in the order they were reached.
	Objects int
	Bytes   int64
	Sizes   []int64
	// Tiny counts the pointer-free objects below 16 bytes, which the
	// allocator packs into shared 16-byte blocks, and TinyBytes their
	// sizes (rounded up to 8): they take between TinyBlocks() and Tiny
	// blocks, depending on what else was allocated between them, and the
	// heap profile records each block as one 16-byte object.
	Tiny      int
	TinyBytes int64
}

// TinyBlock is the tiny allocator's block.
const TinyBlock = tinySize

// TinyBlocks is the fewest blocks the tiny objects fit in.
func (h Held) TinyBlocks() int { return int((h.TinyBytes + TinyBlock - 1) / TinyBlock) }

// The allocator's rules the slots follow (runtime/malloc.go, Go 1.22 and
// later on 64-bit platforms): an object with pointers above
// minSizeForMallocHeader bytes carries an 8-byte header in its slot, and
// an object above maxSmallSize bytes takes whole pages.
const (
	minSizeForMallocHeader = 512
	mallocHeaderSize       = 8
	maxSmallSize           = 32 << 10
	pageSize               = 8 << 10
)

// tinySize is the allocator's tiny block: pointer-free objects below it
// are packed into shared blocks.
const tinySize = 16

// Slot returns the slot of one heap object of size bytes, with pointers
// or not: its size class (SizeClass), the malloc header counted, or whole
// pages above the largest class. A pointer-free object below 16 bytes has
// no slot of its own (the tiny allocator packs it into a shared block):
// an error.
func Slot(size int64, pointers bool) (int64, error) {
	if !pointers && size < tinySize {
		return 0, fmt.Errorf("a pointer-free object of %d bytes shares a tiny block: it has no slot of its own", size)
	}
	if pointers && size > minSizeForMallocHeader && size <= maxSmallSize-mallocHeaderSize {
		size += mallocHeaderSize
	}
	if size > maxSmallSize {
		return (size + pageSize - 1) / pageSize * pageSize, nil
	}
	if c, ok := SizeClass(size); ok {
		return c, nil
	}
	return 0, fmt.Errorf("no size class holds %d bytes", size)
}

// Reachable returns what the heap objects reachable from v cost. v is
// walked by reflection, unexported fields included: a pointer leads to an
// object of its element type (or, for a pointer into an object already
// reached, to nothing new), a slice to its backing array of cap elements,
// a string to its bytes. It refuses what it cannot count exactly: maps,
// channels, functions, interfaces holding non-pointer values, and
// pointers that do not point to the start of an object it can size
// (unsafe.Pointer, a pointer into an array not reached by its slice).
// Objects the value shares with others are counted once per call; the
// caller must not modify v while it runs.
func Reachable(v any) (Held, error) {
	w := &walker{seen: map[uintptr]bool{}}
	err := w.value(reflect.ValueOf(v))
	return w.held, err
}

type walker struct {
	held Held
	seen map[uintptr]bool
	// spans are the objects reached, as [start, end) addresses, so that a
	// pointer into one of them is not taken for a new object.
	spans [][2]uintptr
}

func (w *walker) inside(p uintptr) bool {
	for _, s := range w.spans {
		if p >= s[0] && p < s[1] {
			return true
		}
	}
	return false
}

// object counts the object of typ at p, size bytes, once.
func (w *walker) object(p uintptr, size int64, pointers bool) (bool, error) {
	if p == 0 || w.seen[p] {
		return false, nil
	}
	if w.inside(p) {
		return false, nil // a pointer into an object already counted
	}
	if !pointers && size < tinySize {
		if size < 8 {
			return false, fmt.Errorf("a pointer-free object of %d bytes: its place in a tiny block depends on its alignment", size)
		}
		w.seen[p] = true
		w.spans = append(w.spans, [2]uintptr{p, p + uintptr(size)})
		w.held.Tiny++
		w.held.TinyBytes += (size + 7) &^ 7
		return true, nil
	}
	slot, err := Slot(size, pointers)
	if err != nil {
		return false, err
	}
	w.seen[p] = true
	w.spans = append(w.spans, [2]uintptr{p, p + uintptr(size)})
	w.held.Objects++
	w.held.Bytes += slot
	w.held.Sizes = append(w.held.Sizes, slot)
	return true, nil
}

// value walks v.
func (w *walker) value(v reflect.Value) error {
	if !v.IsValid() {
		return nil
	}
	t := v.Type()
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return nil
	case reflect.Array:
		if !typeptr.Has(t.Elem()) {
			return nil
		}
		for i := range v.Len() {
			if err := w.value(v.Index(i)); err != nil {
				return err
			}
		}
		return nil
	case reflect.Struct:
		for i := range v.NumField() {
			if err := w.value(v.Field(i)); err != nil {
				return err
			}
		}
		return nil
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		e := t.Elem()
		if e.Size() == 0 {
			return nil // zero-size objects share the runtime's zerobase
		}
		fresh, err := w.object(v.Pointer(), int64(e.Size()), typeptr.Has(e))
		if err != nil || !fresh {
			return err
		}
		return w.value(v.Elem())
	case reflect.Slice:
		if v.IsNil() || v.Cap() == 0 {
			return nil
		}
		e := t.Elem()
		fresh, err := w.object(v.Pointer(), int64(v.Cap())*int64(e.Size()), typeptr.Has(e))
		if err != nil || !fresh {
			return err
		}
		if !typeptr.Has(e) {
			return nil
		}
		full := v.Slice3(0, v.Cap(), v.Cap())
		for i := range full.Len() {
			if err := w.value(full.Index(i)); err != nil {
				return err
			}
		}
		return nil
	case reflect.String:
		if v.Len() == 0 {
			return nil
		}
		s := v.String()
		_, err := w.object(uintptr(unsafe.Pointer(unsafe.StringData(s))), int64(len(s)), false)
		return err
	case reflect.Interface:
		if v.IsNil() {
			return nil
		}
		e := v.Elem()
		if k := e.Kind(); k != reflect.Pointer {
			return fmt.Errorf("an interface holding a %s (%s): its box is not counted", k, e.Type())
		}
		return w.value(e)
	}
	return fmt.Errorf("cannot count what a %s (%s) holds", t.Kind(), t)
}
