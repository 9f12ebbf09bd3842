package typeptr

import (
	"reflect"
	"testing"
	"unsafe"
)

func TestHas(t *testing.T) {
	type flat struct {
		a [4]uint64
		b [0]*int
	}
	type nested struct {
		x   int
		arr [2]struct{ p *byte }
	}
	for _, tt := range []struct {
		v    any
		want bool
	}{
		{[96]byte{}, false},
		{flat{}, false}, // a zero-length array of pointers holds none
		{nested{}, true},
		{"", true},
		{[]byte(nil), true},
		{map[int]int(nil), true},
		{unsafe.Pointer(nil), true},
		{func() {}, true},
		{struct{ c chan int }{}, true},
		{struct{ i any }{}, true},
		{uintptr(0), false},
	} {
		if got := Has(reflect.TypeOf(tt.v)); got != tt.want {
			t.Errorf("Has(%T) = %v, want %v", tt.v, got, tt.want)
		}
	}
}
