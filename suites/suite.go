// Package suites holds the registry of built-in cases: each package below
// it (suites/blst, suites/gnark, suites/circl) knows one crypto library and
// registers, from its init function, one Entry per type, representation
// and layout that library offers, and one for each it does not, with the
// reason. Import suites/all to register them all.
package suites

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/memprof/memprof/memprof"
)

// The names the registry accepts. The CLI matches them case-insensitively.
var (
	Types   = []string{"SecretKey", "PublicKey", "Signature", "G1", "G2", "PubkeyCache", "AttestationPool"}
	Libs    = []string{"blst", "gnark", "circl"}
	Reprs   = []string{"scalar", "affine", "jacobian", "projective", "compressed", "uncompressed", "index-slice", "map-pointer", "wrapper-pointer", "wrapper-value", "slice-value", "slice-pointer", "slice-compressed", "map-root"}
	Layouts = []string{"pointer", "slice", "collection"}
	Schemes = []string{"min-pk", "min-sig"}
)

// Scenarios are the types that model a whole structure of a real client
// (a validator public-key cache, an attestation pool) rather than one
// object; their entries use the "collection" layout and their repr names
// the form of the structure.
var Scenarios = []string{"PubkeyCache", "AttestationPool"}

// Entry is one combination of type, library, representation and layout.
type Entry struct {
	Type   string
	Lib    string
	Repr   string
	Layout string
	// Scheme is "min-pk" or "min-sig" for PublicKey and Signature (the
	// scheme decides their group), "" for types it does not change.
	Scheme string
	// Constructor says how an instance is made, for example
	// "(*blst.P2Affine).Uncompress of 96 bytes".
	Constructor string
	// SizeHint is unsafe.Sizeof of the representation, used to refuse an
	// N that cannot fit in memory before anything is allocated.
	SizeHint uintptr
	// DefaultN, if not zero, is the N measured when the user gives none:
	// scenarios are measured at their real scale (1,000,000 validators).
	DefaultN int
	// Unavailable, when not empty, says why this combination cannot be
	// measured (the library has no such representation, or this build
	// lacks cgo); Case is nil then.
	Unavailable string
	// Case builds the case. It is called only when the entry is measured,
	// so registering costs nothing.
	Case func() memprof.Case
}

// ID is the entry's unique name, in key=value parts:
// type=Signature/lib=blst/repr=affine/layout=pointer[/scheme=min-sig].
func (e Entry) ID() string {
	id := "type=" + e.Type + "/lib=" + e.Lib + "/repr=" + e.Repr + "/layout=" + e.Layout
	if e.Scheme == "min-sig" {
		id += "/scheme=min-sig"
	}
	return id
}

var (
	mu      sync.Mutex
	entries = map[string]Entry{}
)

// Register adds entries to the registry. It panics on a duplicate or on a
// name outside the lists above: both are programming errors in a suite.
func Register(es ...Entry) {
	mu.Lock()
	defer mu.Unlock()
	for _, e := range es {
		check := func(what, v string, valid []string) {
			if !slices.Contains(valid, v) {
				panic(fmt.Sprintf("suites: entry %s: %s %q is not one of %v", e.ID(), what, v, valid))
			}
		}
		check("type", e.Type, Types)
		check("lib", e.Lib, Libs)
		check("repr", e.Repr, Reprs)
		check("layout", e.Layout, Layouts)
		if e.Scheme != "" {
			check("scheme", e.Scheme, Schemes)
		}
		if (e.Case == nil) == (e.Unavailable == "") {
			panic(fmt.Sprintf("suites: entry %s: exactly one of Case and Unavailable must be set", e.ID()))
		}
		if _, dup := entries[e.ID()]; dup {
			panic("suites: duplicate entry " + e.ID())
		}
		entries[e.ID()] = e
	}
}

// All returns every registered entry in a stable order: by type, library,
// representation and layout, in the order of the lists above.
func All() []Entry {
	mu.Lock()
	defer mu.Unlock()
	out := make([]Entry, 0, len(entries))
	for _, e := range entries {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if !sameKey(a, b) {
			return Less(a.Type, a.Lib, a.Repr, a.Layout, b.Type, b.Lib, b.Repr, b.Layout)
		}
		return a.ID() < b.ID()
	})
	return out
}

func sameKey(a, b Entry) bool {
	return a.Type == b.Type && a.Lib == b.Lib && a.Repr == b.Repr && a.Layout == b.Layout
}

// Less orders two (type, lib, repr, layout) keys by the lists above; names
// not in a list sort after those that are, alphabetically.
func Less(t1, l1, r1, y1, t2, l2, r2, y2 string) bool {
	for _, p := range [][3]any{{t1, t2, Types}, {l1, l2, Libs}, {r1, r2, Reprs}, {y1, y2, Layouts}} {
		a, b, list := p[0].(string), p[1].(string), p[2].([]string)
		if a == b {
			continue
		}
		ia, ib := rank(list, a), rank(list, b)
		if ia != ib {
			return ia < ib
		}
		return a < b
	}
	return false
}

func rank(list []string, v string) int {
	if i := slices.Index(list, v); i >= 0 {
		return i
	}
	return len(list)
}

// Lookup finds an entry by ID.
func Lookup(id string) (Entry, bool) {
	mu.Lock()
	defer mu.Unlock()
	e, ok := entries[id]
	return e, ok
}

// LookupCase finds the case of an available entry; it is the lookup a
// child process hands to memprof.ServeChild.
func LookupCase(id string) (memprof.Case, error) {
	e, ok := Lookup(id)
	if !ok {
		return memprof.Case{}, fmt.Errorf("no case %q registered", id)
	}
	if e.Unavailable != "" {
		return memprof.Case{}, fmt.Errorf("case %s is unavailable: %s", id, e.Unavailable)
	}
	c := e.Case()
	if c.Name == "" {
		c.Name = id
	}
	return c, nil
}

// Canonical returns the name in valid that equals v ignoring case, or an
// error listing the valid names.
func Canonical(what, v string, valid []string) (string, error) {
	for _, s := range valid {
		if strings.EqualFold(s, v) {
			return s, nil
		}
	}
	return "", fmt.Errorf("unknown %s %q: valid %ss are %s", what, v, what, strings.Join(valid, ", "))
}
