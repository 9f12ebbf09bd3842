package results

import "reflect"

// retainedSize estimates the bytes v keeps once decoded: its own size,
// the bytes of its strings, and what its slices, maps and pointers hold,
// recursively.
func retainedSize(v reflect.Value) int64 {
	return int64(v.Type().Size()) + indirectSize(v)
}

// indirectSize is what v holds outside its own size.
func indirectSize(v reflect.Value) int64 {
	switch v.Kind() {
	case reflect.String:
		return int64(v.Len())
	case reflect.Struct:
		var n int64
		for i := range v.NumField() {
			n += indirectSize(v.Field(i))
		}
		return n
	case reflect.Slice:
		if v.IsNil() {
			return 0
		}
		n := int64(v.Cap()) * int64(v.Type().Elem().Size())
		if hasIndirect(v.Type().Elem()) {
			for i := range v.Len() {
				n += indirectSize(v.Index(i))
			}
		}
		return n
	case reflect.Pointer:
		if v.IsNil() {
			return 0
		}
		return retainedSize(v.Elem())
	case reflect.Map:
		n := int64(v.Len()) * int64(v.Type().Key().Size()+v.Type().Elem().Size())
		it := v.MapRange()
		for it.Next() {
			n += indirectSize(it.Key()) + indirectSize(it.Value())
		}
		return n
	}
	return 0
}

// hasIndirect reports whether values of t may hold memory outside
// themselves.
func hasIndirect(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Slice, reflect.Pointer, reflect.Map, reflect.Interface:
		return true
	case reflect.Struct:
		for i := range t.NumField() {
			if hasIndirect(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}
