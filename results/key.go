package results

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/vocab"
)

// Key is the identity of a case: every dimension that tells two rows of a
// results file apart. An instance case has Type, Lib, Repr and Layout; an
// operation has Op and Batch and no Layout; Scheme is set for the types
// whose group it decides (Type.HasScheme); Param tells apart cases measured
// at several settings of one parameter ("population=1000000"). A user's own
// case, measured through the library API, has only a Name.
//
// Key is embedded in the rows of a results file, so its fields are the
// rows' JSON fields.
type Key struct {
	Name   string         `json:"name,omitempty"`
	Type   vocab.Type     `json:"type"`
	Lib    vocab.Lib      `json:"lib"`
	Repr   vocab.Repr     `json:"repr"`
	Layout measure.Layout `json:"layout,omitempty"`
	Scheme vocab.Scheme   `json:"scheme,omitempty"`
	Op     vocab.Op       `json:"op,omitempty"`
	// Batch is how many items one call of the operation handles (at
	// least 1 for an operation; 0 for an instance case).
	Batch int   `json:"batch,omitempty"`
	Param Param `json:"param,omitempty"`
}

// IsCustom reports whether k names a user's own case (a Name and no Type).
func (k Key) IsCustom() bool { return k.Type == "" && k.Name != "" }

// IsOp reports whether k is an operation's key.
func (k Key) IsOp() bool { return k.Op != "" }

// Normalize returns k with the scheme its type implies when it names none
// (results files written before operations carried a scheme), so that two
// keys of one case compare equal.
func (k Key) Normalize() Key {
	if k.Scheme == "" {
		k.Scheme = k.Type.DefaultScheme()
	}
	return k
}

// nonDefaultScheme is the scheme as names show it: only when it is not the
// type's default.
func (k Key) nonDefaultScheme() vocab.Scheme {
	if k.Scheme == k.Type.DefaultScheme() {
		return ""
	}
	return k.Scheme
}

// String names the case for people: Signature/blst/affine/pointer, with
// /min-sig when the scheme is not the default and /<param> when set; an
// operation reads Signature/blst/affine op=verify, with batch=N when one
// call handles more than one item.
func (k Key) String() string { return k.name(k.nonDefaultScheme()) }

// FullName names the case as String does, with the scheme of an instance
// case shown wherever its type has one, the default too:
// Signature/blst/affine/pointer/min-pk. The gate names cases so, since a
// selector that omits the scheme selects the default scheme only: a line
// without it would not say which it checked. An operation, whose scheme is
// not selected on (every one is min-pk), is named as String names it.
func (k Key) FullName() string {
	if k.IsOp() {
		return k.String()
	}
	return k.name(k.Normalize().Scheme)
}

// name is String, showing scheme s.
func (k Key) name(s vocab.Scheme) string {
	if k.IsCustom() {
		return k.Name
	}
	var b strings.Builder
	b.WriteString(string(k.Type) + "/" + string(k.Lib) + "/" + string(k.Repr))
	if k.Layout != "" {
		b.WriteString("/" + string(k.Layout))
	}
	if s != "" {
		b.WriteString("/" + string(s))
	}
	if k.Param != "" {
		b.WriteString("/" + string(k.Param))
	}
	if k.Op != "" {
		b.WriteString(" op=" + string(k.Op))
		if k.Batch > 1 {
			b.WriteString(" batch=" + strconv.Itoa(k.Batch))
		}
	}
	return b.String()
}

// BenchName is the key in the key=value form of Go benchmark names:
// type=Signature/lib=blst/repr=affine/layout=pointer, then scheme=min-sig
// when not the default, the parameter, and for an operation op=verify and
// batch=N when N > 1. It is also the stable name by which a parent process
// asks a child for a case, and it holds no white space.
func (k Key) BenchName() string {
	if k.IsCustom() {
		return strings.Join(strings.Fields(k.Name), "_")
	}
	parts := []string{"type=" + string(k.Type), "lib=" + string(k.Lib), "repr=" + string(k.Repr)}
	if k.Layout != "" {
		parts = append(parts, "layout="+string(k.Layout))
	}
	if s := k.nonDefaultScheme(); s != "" {
		parts = append(parts, "scheme="+string(s))
	}
	if k.Param != "" {
		parts = append(parts, string(k.Param))
	}
	if k.Op != "" {
		parts = append(parts, "op="+string(k.Op))
		if k.Batch > 1 {
			parts = append(parts, "batch="+strconv.Itoa(k.Batch))
		}
	}
	return strings.Join(parts, "/")
}

// Compare is the one ordering of keys: by type, operation, library,
// representation, layout and scheme in the order of the vocabulary lists
// (names outside them after, alphabetically), then batch, parameter (by
// number where both values are numbers) and name. Instance cases of a type
// are thus grouped by library; operations by what they do, so that the
// rows compared with one another are adjacent.
func Compare(a, b Key) int {
	return cmp.Or(
		vocab.CompareName(vocab.Types, a.Type, b.Type),
		vocab.CompareName(vocab.Ops, a.Op, b.Op),
		vocab.CompareName(vocab.Libs, a.Lib, b.Lib),
		vocab.CompareName(vocab.Reprs, a.Repr, b.Repr),
		vocab.CompareName(measure.Layouts, a.Layout, b.Layout),
		vocab.CompareName(vocab.Schemes, a.Normalize().Scheme, b.Normalize().Scheme),
		cmp.Compare(a.Batch, b.Batch),
		a.Param.compare(b.Param),
		strings.Compare(a.Name, b.Name),
	)
}

// Less reports whether a sorts before b (see Compare).
func Less(a, b Key) bool { return Compare(a, b) < 0 }

// Param is one parameter setting of a case measured at several settings,
// written name=value: population=1000000, precompute=6.
type Param string

// NewParam returns the parameter name=value.
func NewParam(name string, value int) Param {
	return Param(name + "=" + strconv.Itoa(value))
}

// Split returns the parameter's name and value.
func (p Param) Split() (name, value string) {
	name, value, _ = strings.Cut(string(p), "=")
	return name, value
}

// Check returns an error unless p is empty or name=value with a name of
// lower-case letters and dashes and a value without white space, '/' or
// '='.
func (p Param) Check() error {
	if p == "" {
		return nil
	}
	name, value, ok := strings.Cut(string(p), "=")
	if !ok || name == "" || value == "" {
		return fmt.Errorf("parameter %q is not name=value", string(p))
	}
	for _, r := range name {
		if (r < 'a' || r > 'z') && r != '-' {
			return fmt.Errorf("parameter %q: name %q must be lower-case letters and dashes", string(p), name)
		}
	}
	if strings.ContainsAny(value, "/= \t\n") {
		return fmt.Errorf("parameter %q: value %q holds '/', '=' or white space", string(p), value)
	}
	return nil
}

func (p Param) compare(q Param) int {
	pn, pv := p.Split()
	qn, qv := q.Split()
	if c := strings.Compare(pn, qn); c != 0 {
		return c
	}
	x, errx := strconv.ParseFloat(pv, 64)
	y, erry := strconv.ParseFloat(qv, 64)
	if errx == nil && erry == nil {
		return cmp.Compare(x, y)
	}
	return naturalCompare(pv, qv)
}

// naturalCompare orders two values with their runs of digits compared as
// numbers: set=ML-KEM-512 before set=ML-KEM-768 before set=ML-KEM-1024.
func naturalCompare(a, b string) int {
	for a != "" && b != "" {
		da, db := digits(a), digits(b)
		if da > 0 && db > 0 {
			x, y := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if c := cmp.Or(cmp.Compare(len(x), len(y)), strings.Compare(x, y)); c != 0 {
				return c
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return cmp.Compare(a[0], b[0])
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

// digits is the length of the run of ASCII digits s starts with.
func digits(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// HasSchemeMismatch reports whether k has a scheme although its type has
// none, or has none although its type has one.
func (k Key) HasSchemeMismatch() bool {
	return (k.Scheme != "") != k.Type.HasScheme()
}
