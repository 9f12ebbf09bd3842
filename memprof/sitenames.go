package memprof

import (
	"math"
	"reflect"
	"regexp"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"

	"github.com/memprof/memprof/internal/frame"
	"github.com/memprof/memprof/measure"
)

// How a result names its sites. Attribution keys a site by the first frame
// of its allocation stack outside the Go runtime; the result names it by
// the first frame outside memprof's harness too: the library's function
// (or the standard library's) a suite calls, or a user's constructor. An
// allocation the harness makes itself (a suite's new(T), or the slice it
// fills) has no such frame, and is named by what it holds, from the type
// of what the case returns: new(blst.P2Affine), make([]blst.P2Affine, n),
// or any([]blst.P1Affine) for the interface that returns a slice. Files
// are module-relative (frame.SourcePath).

// harnessPrefix starts the names of the suites' functions
// ("github.com/memprof/memprof/suites/"): the harness, whose own
// allocations are named by what they hold. (The engine allocates nothing
// that is a site: its own objects are left out, see stackInfo.engineOwn.)
var harnessPrefix = enginePrefix[:strings.LastIndex(strings.TrimSuffix(enginePrefix, "."), "/")+1] + "suites/"

// isHarness reports whether the function named fn is memprof's harness,
// which allocates for the measurement, not as the program measured would.
func isHarness(fn string) bool { return strings.HasPrefix(fn, harnessPrefix) }

// mainModule is the path of the binary's main module ("" when the binary
// has no build information): files of its packages are printed relative
// to it.
var mainModule = sync.OnceValue(func() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return bi.Main.Path
	}
	return ""
})

// sourcePath is the file of a site as results print it.
func sourcePath(fn, file string) string {
	if file == "" {
		return ""
	}
	return frame.SourcePath(fn, file, mainModule())
}

// harnessSiteName names an allocation the harness made itself, from the
// type of what the case of layout returns (nil when unknown): "" when the
// type does not tell.
func harnessSiteName(layout measure.Layout, returned reflect.Type, slots []int64) string {
	if returned == nil {
		return ""
	}
	if isBox(returned, slots) {
		return "any(" + typeString(returned) + ")"
	}
	switch {
	case layout == measure.Pointer && returned.Kind() == reflect.Pointer && isSlotOf(returned.Elem(), slots):
		return "new(" + typeString(returned.Elem()) + ")"
	case layout == measure.Slice && returned.Kind() == reflect.Slice:
		return "make(" + typeString(returned) + ", n)"
	case layout == measure.Pointer && returned.Kind() == reflect.Pointer:
		return pointeeSiteName(returned.Elem(), slots)
	}
	return ""
}

// pointeeSiteName names an allocation the harness made for objects a
// returned T points to (a copy's own matrix): "new(internal.Mat) for
// field A" when one pointer field of T (in it, its structs or its arrays)
// points to objects of those slots, "new(big.Int)" when several fields of
// one type do, "new(cpapke.PrivateKey), new(cpapke.PublicKey)" when
// fields of several types fill the slots between them; "" when the
// fields do not explain every slot.
func pointeeSiteName(t reflect.Type, slots []int64) string {
	var types []reflect.Type
	var fields []string
	covered := map[int64]bool{}
	var walk func(t reflect.Type, field string)
	walk = func(t reflect.Type, field string) {
		switch t.Kind() {
		case reflect.Struct:
			for i := range t.NumField() {
				walk(t.Field(i).Type, t.Field(i).Name)
			}
		case reflect.Array:
			walk(t.Elem(), field)
		case reflect.Pointer:
			slot := slotSize(int64(t.Elem().Size()))
			if t.Elem().Size() > 0 && slices.Contains(slots, slot) {
				if !slices.Contains(types, t.Elem()) {
					types = append(types, t.Elem())
				}
				fields = append(fields, field)
				covered[slot] = true
			}
		}
	}
	if t.Kind() == reflect.Struct {
		walk(t, "")
	}
	if len(types) == 0 || len(covered) != len(slices.Compact(slices.Sorted(slices.Values(slots)))) {
		return ""
	}
	if len(fields) == 1 {
		return "new(" + typeString(types[0]) + ") for field " + fields[0]
	}
	names := make([]string, len(types))
	for i, ty := range types {
		names[i] = "new(" + typeString(ty) + ")"
	}
	return strings.Join(names, ", ")
}

// typeString spells t as Go source does: [48]byte, not [48]uint8, and
// bls.PublicKey[bls.G1], not the import path reflect gives type arguments.
func typeString(t reflect.Type) string {
	return packageDirs.ReplaceAllString(strings.ReplaceAll(t.String(), "]uint8", "]byte"), "")
}

// packageDirs matches the directories of an import path in a type's name.
var packageDirs = regexp.MustCompile(`(?:[\w.~-]+/)+`)

// isBox reports whether objects of slot sizes slots are the interface
// value's box of a returned value of type t: one slot of t's size class,
// for a type the interface does not hold directly.
func isBox(t reflect.Type, slots []int64) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return false // held in the interface's data word
	}
	return isSlotOf(t, slots)
}

// isSlotOf reports whether slots are one slot, of the size class of a t.
func isSlotOf(t reflect.Type, slots []int64) bool {
	return t.Size() > 0 && len(slots) == 1 && slots[0] == slotSize(int64(t.Size()))
}

// sizeClasses are the allocator's size classes, every one: the bounds of
// runtime/metrics' /gc/heap/allocs-by-size:bytes histogram, whose bucket
// for a class ends just past it (runtime.MemStats.BySize stops short of
// the largest classes).
var sizeClasses = sync.OnceValue(func() []int64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs-by-size:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return nil
	}
	var out []int64
	for _, b := range s[0].Value.Float64Histogram().Buckets {
		if b > 1 && !math.IsInf(b, 1) {
			out = append(out, int64(b)-1)
		}
	}
	return out
})

// slotSize is the slot the allocator gives an object of size bytes: its
// size class, or beyond the classes whole runtime pages.
func slotSize(size int64) int64 {
	for _, c := range sizeClasses() {
		if c >= size {
			return c
		}
	}
	return (size + runtimePage - 1) / runtimePage * runtimePage
}

// nameSites names r's sites as results print them (see above), merging
// sites that the naming makes one: a harness's site keeps no line.
func nameSites(r *Result, layout measure.Layout, returned reflect.Type) {
	var out []Site
	for _, s := range r.Sites {
		if isHarness(s.Function) {
			if name := harnessSiteName(layout, returned, s.SlotSizes); name != "" {
				s.Function, s.File, s.Line = name, "", 0
			}
		}
		s.File = sourcePath(s.Function, s.File)
		i := slices.IndexFunc(out, func(o Site) bool {
			return o.Function == s.Function && o.File == s.File && o.Line == s.Line
		})
		if i < 0 {
			out = append(out, s)
			continue
		}
		o := &out[i]
		o.BytesPerInstance += s.BytesPerInstance
		o.AllocsPerInstance += s.AllocsPerInstance
		o.SlotSizes = slices.Compact(slices.Sorted(slices.Values(append(slices.Clip(o.SlotSizes), s.SlotSizes...))))
	}
	r.Sites = out
}

// nameOpSites sets the files of op sites as results print them.
func nameOpSites(sites []measure.OpSite) {
	for i := range sites {
		sites[i].File = sourcePath(sites[i].Function, sites[i].File)
	}
}
