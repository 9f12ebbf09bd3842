// Package typeptr says whether a type's values hold pointers: what the
// allocator gives a pointer bitmap (and above 512 bytes a header) and the
// collector scans.
package typeptr

import "reflect"

// Has reports whether a value of type t holds pointers the collector
// follows.
func Has(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.UnsafePointer, reflect.Map, reflect.Slice, reflect.String,
		reflect.Interface, reflect.Chan, reflect.Func:
		return true
	case reflect.Array:
		return t.Len() > 0 && Has(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if Has(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}
