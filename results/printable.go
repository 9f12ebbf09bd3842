package results

import (
	"reflect"
	"strconv"
	"strings"
	"unicode"
)

// Printable returns s with each control character (a line break, an
// escape, DEL, the C1 controls) written as Go writes it in a quoted
// string: "\n", "\x1b", "\u0085". A name read from a results file (a
// machine, a CPU, a case of the library API's, an error) is printed in
// tables, Markdown and terminals, where a line break would start a row
// or a heading of its own and an escape would drive the terminal.
func Printable(s string) string {
	if strings.IndexFunc(s, unicode.IsControl) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// printableStrings makes every string v holds Printable, in place: the
// fields of structs, the elements of slices and the keys and values of
// maps, through pointers.
func printableStrings(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if s := v.String(); v.CanSet() && strings.IndexFunc(s, unicode.IsControl) >= 0 {
			v.SetString(Printable(s))
		}
	case reflect.Pointer:
		if !v.IsNil() {
			printableStrings(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				printableStrings(v.Field(i))
			}
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Float64 {
			return // samples: nothing to print
		}
		for i := range v.Len() {
			printableStrings(v.Index(i))
		}
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String || v.Type().Elem().Kind() != reflect.String {
			return
		}
		for _, k := range v.MapKeys() {
			ks, vs := k.String(), v.MapIndex(k).String()
			if pk, pv := Printable(ks), Printable(vs); pk != ks || pv != vs {
				v.SetMapIndex(k, reflect.Value{})
				v.SetMapIndex(reflect.ValueOf(pk).Convert(v.Type().Key()), reflect.ValueOf(pv).Convert(v.Type().Elem()))
			}
		}
	}
}
