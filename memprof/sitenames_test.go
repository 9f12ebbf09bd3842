package memprof

import (
	"bytes"
	"reflect"
	"runtime"
	"slices"
	"testing"
	"unsafe"

	"github.com/memprof/memprof/measure"
)

// TestSiteFilesAreModuleRelative measures constructors of this package and
// of the standard library: their sites' files are the module's path and
// the import-path form, never this machine's.
func TestSiteFilesAreModuleRelative(t *testing.T) {
	tests := []struct {
		name     string
		newFunc  func(int) any
		function string
		file     string
	}{
		{"this package", newSiteTestArray, funcName(newSiteTestArray), "memprof/sitenames_test.go"},
		{"the standard library", cloneSiteTestBytes, "bytes.Clone", "bytes/bytes.go"},
		// reflect.New allocates for its caller: the site is the caller,
		// never reflect.unsafe_New in the runtime's malloc.go.
		{"through reflect.New", newSiteTestReflect, funcName(newSiteTestReflect), "memprof/sitenames_test.go"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Measure(Case{Name: tt.name, New: tt.newFunc}, N(1000), SkipGC())
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Sites) != 1 {
				t.Fatalf("sites: got %+v, want one", r.Sites)
			}
			if s := r.Sites[0]; s.Function != tt.function || s.File != tt.file || s.Line <= 0 {
				t.Errorf("site: got %s %s:%d, want %s %s:<line>", s.Function, s.File, s.Line, tt.function, tt.file)
			}
		})
	}
}

func newSiteTestArray(int) any { return new([64]byte) }

var siteTestArrayType = reflect.ArrayOf(96, reflect.TypeFor[byte]())

func newSiteTestReflect(int) any { return reflect.New(siteTestArrayType).Interface() }

var siteTestBytes = make([]byte, 40)

func cloneSiteTestBytes(int) any { return (*[40]byte)(bytes.Clone(siteTestBytes)) }

// withMatrix is a key that points to an expanded matrix of its own.
type withMatrix struct {
	rho [32]byte
	A   *[2048]byte
}

// withPair points to two objects of one type, one through a struct in it.
type withPair struct {
	inner struct{ X *[2048]byte }
	D     *[2048]byte
}

// withTwo points to objects of two types.
type withTwo struct {
	sk *[2048]byte
	pk *[4096]byte
}

// TestNameSites names a harness's own allocations by the type the case
// returns, merges those the naming makes one, and leaves a library's
// alone.
func TestNameSites(t *testing.T) {
	harness := harnessPrefix + "suitekit.Fill[...].Pointer.func1.1"
	lib := Site{Function: "example.com/lib.Decode", File: "/home/u/go/pkg/mod/example.com/lib@v1.2.0/decode.go", Line: 7, BytesPerInstance: 16, AllocsPerInstance: 1, SlotSizes: []int64{16}}
	type point struct{ x, y, z uint64 }
	pointSlot := int64(unsafe.Sizeof(point{})) // 24, a size class
	sliceHeader := int64(unsafe.Sizeof([]point{}))
	tests := []struct {
		name     string
		layout   measure.Layout
		returned reflect.Type
		sites    []Site
		want     []Site
	}{
		{"pointer: new(T), two lines made one", measure.Pointer, reflect.TypeFor[*point](),
			[]Site{
				{Function: harness, File: "/w/suites/internal/suitekit/suitekit.go", Line: 132, BytesPerInstance: 24, AllocsPerInstance: 0.5, SlotSizes: []int64{pointSlot}},
				{Function: harness, File: "/w/suites/internal/suitekit/suitekit.go", Line: 133, BytesPerInstance: 24, AllocsPerInstance: 0.5, SlotSizes: []int64{pointSlot}},
				lib,
			},
			[]Site{
				{Function: "new(memprof.point)", BytesPerInstance: 48, AllocsPerInstance: 1, SlotSizes: []int64{pointSlot}},
				{Function: lib.Function, File: "example.com/lib@v1.2.0/decode.go", Line: 7, BytesPerInstance: 16, AllocsPerInstance: 1, SlotSizes: []int64{16}},
			}},
		{"pointer: the object a field points to", measure.Pointer, reflect.TypeFor[*withMatrix](),
			[]Site{{Function: harness, Line: 150, BytesPerInstance: 2048, AllocsPerInstance: 1, SlotSizes: []int64{2048}}},
			[]Site{{Function: "new([2048]byte) for field A", BytesPerInstance: 2048, AllocsPerInstance: 1, SlotSizes: []int64{2048}}}},
		{"pointer: objects several fields point to, in a struct of the struct", measure.Pointer, reflect.TypeFor[*withPair](),
			[]Site{{Function: harness, Line: 160, BytesPerInstance: 4096, AllocsPerInstance: 2, SlotSizes: []int64{2048}}},
			[]Site{{Function: "new([2048]byte)", BytesPerInstance: 4096, AllocsPerInstance: 2, SlotSizes: []int64{2048}}}},
		{"pointer: objects of two types fields point to", measure.Pointer, reflect.TypeFor[*withTwo](),
			[]Site{{Function: harness, Line: 170, BytesPerInstance: 2048 + 4096, AllocsPerInstance: 2, SlotSizes: []int64{2048, 4096}}},
			[]Site{{Function: "new([2048]byte), new([4096]byte)", BytesPerInstance: 2048 + 4096, AllocsPerInstance: 2, SlotSizes: []int64{2048, 4096}}}},
		{"pointer: a slot no field explains", measure.Pointer, reflect.TypeFor[*withTwo](),
			[]Site{{Function: harness, Line: 171, BytesPerInstance: 2048 + 8192, AllocsPerInstance: 2, SlotSizes: []int64{2048, 8192}}},
			[]Site{{Function: harness, Line: 171, BytesPerInstance: 2048 + 8192, AllocsPerInstance: 2, SlotSizes: []int64{2048, 8192}}}},
		{"pointer: another object of the harness keeps its function", measure.Pointer, reflect.TypeFor[*point](),
			[]Site{{Function: harness, Line: 140, BytesPerInstance: 64, AllocsPerInstance: 1, SlotSizes: []int64{64}}},
			[]Site{{Function: harness, Line: 140, BytesPerInstance: 64, AllocsPerInstance: 1, SlotSizes: []int64{64}}}},
		{"slice: make and the interface's box", measure.Slice, reflect.TypeFor[[]point](),
			[]Site{
				{Function: harness, Line: 201, BytesPerInstance: 24.01, AllocsPerInstance: 0.001, SlotSizes: []int64{24576}},
				{Function: harness, Line: 205, BytesPerInstance: 0.024, AllocsPerInstance: 0.001, SlotSizes: []int64{sliceHeader}},
			},
			[]Site{
				{Function: "make([]memprof.point, n)", BytesPerInstance: 24.01, AllocsPerInstance: 0.001, SlotSizes: []int64{24576}},
				{Function: "any([]memprof.point)", BytesPerInstance: 0.024, AllocsPerInstance: 0.001, SlotSizes: []int64{sliceHeader}},
			}},
		{"pointer: a type in one of the largest size classes", measure.Pointer, reflect.TypeFor[*[24192]byte](),
			[]Site{{Function: harness, Line: 141, BytesPerInstance: 24576, AllocsPerInstance: 1, SlotSizes: []int64{slotSize(24192)}}},
			[]Site{{Function: "new([24192]byte)", BytesPerInstance: 24576, AllocsPerInstance: 1, SlotSizes: []int64{slotSize(24192)}}}},
		{"a user's constructor is its own site", measure.Pointer, reflect.TypeFor[*[48]byte](),
			[]Site{{Function: "example.com/app.newKey", Line: 3, BytesPerInstance: 48, AllocsPerInstance: 1, SlotSizes: []int64{48}}},
			[]Site{{Function: "example.com/app.newKey", Line: 3, BytesPerInstance: 48, AllocsPerInstance: 1, SlotSizes: []int64{48}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &Result{Sites: slices.Clone(tt.sites)}
			nameSites(r, tt.layout, tt.returned)
			if !reflect.DeepEqual(r.Sites, tt.want) {
				t.Errorf("got  %+v\nwant %+v", r.Sites, tt.want)
			}
		})
	}
}

func TestTypeString(t *testing.T) {
	for typ, want := range map[reflect.Type]string{
		reflect.TypeFor[[48]byte]():                  "[48]byte",
		reflect.TypeFor[*bytes.Buffer]():             "*bytes.Buffer",
		reflect.TypeFor[siteGeneric[measure.Site]](): "memprof.siteGeneric[measure.Site]",
		reflect.TypeFor[[]measure.Site]():            "[]measure.Site",
	} {
		if got := typeString(typ); got != want {
			t.Errorf("typeString(%v) = %q, want %q", typ, got, want)
		}
	}
}

type siteGeneric[T any] struct{ v T }

// TestSizeClasses: the classes read from runtime/metrics are those
// runtime.MemStats.BySize lists, and go on past them to the largest
// small-object class; an object beyond them takes whole pages.
func TestSizeClasses(t *testing.T) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	var bySize []int64
	for _, c := range ms.BySize {
		if c.Size > 0 {
			bySize = append(bySize, int64(c.Size))
		}
	}
	got := sizeClasses()
	if len(got) <= len(bySize) || !slices.Equal(got[:len(bySize)], bySize) {
		t.Fatalf("size classes: got %v, want %v and more", got, bySize)
	}
	last := got[len(got)-1]
	if s := slotSize(last + 1); s <= last || s%runtimePage != 0 {
		t.Errorf("slotSize(%d) = %d, want whole pages past the largest class %d", last+1, s, last)
	}
}
