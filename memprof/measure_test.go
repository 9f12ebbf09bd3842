package memprof

import (
	"strings"
	"testing"
	"unsafe"
)

type forty struct{ a, b, c, d, e uint64 }

type twoPart struct {
	head [24]byte
	tail *[100]byte
}

// slotOf returns the size class the runtime uses for an object of size n,
// read from a one-object profile measurement would be circular; instead we
// check the measured slot is >= sizeof and matches the profile's own label.

func TestMeasurePlainStruct(t *testing.T) {
	for _, n := range []int{1000, 10_000} {
		r, err := Measure(Case{Name: "forty", New: func(i int) any { return &forty{a: uint64(i)} }}, N(n))
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%+v", r)
		if r.SizeofBytes != int64(unsafe.Sizeof(forty{})) {
			t.Errorf("sizeof: got %d, want %d", r.SizeofBytes, unsafe.Sizeof(forty{}))
		}
		if r.AllocsPerInstance != 1 {
			t.Errorf("allocs per instance: got %v, want 1", r.AllocsPerInstance)
		}
		if r.BytesPerInstance != r.SlotBytes {
			t.Errorf("bytes per instance %v != slot %v", r.BytesPerInstance, r.SlotBytes)
		}
		if len(r.Sites) != 1 || !strings.Contains(r.Sites[0].Function, "TestMeasurePlainStruct") {
			t.Errorf("sites: %+v", r.Sites)
		}
	}
}
