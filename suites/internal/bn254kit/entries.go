package bn254kit

import (
	"fmt"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/suitekit"
	"github.com/memprof/memprof/vocab"
)

// The instance matrix every BN254 suite covers: both groups, every
// representation a library may keep a point in, both layouts.
var (
	Types   = []vocab.Type{vocab.BN254G1, vocab.BN254G2}
	Reprs   = []vocab.Repr{vocab.Affine, vocab.Jacobian, vocab.Decoded, vocab.Compressed, vocab.Uncompressed, vocab.Prepared}
	Layouts = []measure.Layout{measure.Pointer, measure.Slice}
)

// NotApplicable says why repr does not apply to typ in any library, or
// nothing: only G2 points are prepared for pairings.
func NotApplicable(typ vocab.Type, repr vocab.Repr) vocab.Why {
	if typ == vocab.BN254G1 && repr == vocab.Prepared {
		return vocab.Because(vocab.DoesNotApply, "does not apply: a G1 point has no prepared form: a pairing prepares its G2 points (their Miller-loop lines); G1 points are used as they are")
	}
	return vocab.Why{}
}

// entryImpl is a constructor of one entry, with its default N.
type entryImpl struct {
	suitekit.Impl
	DefaultN int
	NWhy     string
}

type entryKey struct {
	typ  vocab.Type
	repr vocab.Repr
}

// Entries returns the library's entries, one per combination of the
// matrix: those its groups and forms offer, the others unavailable with
// the reason NotApplicable or c.Lacks gives. It panics when a combination
// is neither offered nor explained, or offered where it does not apply:
// the description and the matrix have drifted apart.
func (c Curve[P1, P2]) Entries() []suites.Entry {
	offered := map[entryKey][2]entryImpl{}
	add := func(t vocab.Type, r vocab.Repr, pointer, slice entryImpl) {
		k := entryKey{t, r}
		if _, dup := offered[k]; dup {
			panic(fmt.Sprintf("bn254kit: %s: %s/%s offered twice", c.Lib, t, r))
		}
		offered[k] = [2]entryImpl{pointer, slice}
	}
	p, s := groupImpls(c.G1)
	add(c.G1.Type, c.G1.Repr, p, s)
	p, s = groupImpls(c.G2)
	add(c.G2.Type, c.G2.Repr, p, s)
	p, s = encodingImpls[P1, [G1Size]byte](c.G1)
	add(c.G1.Type, vocab.Uncompressed, p, s)
	p, s = encodingImpls[P2, [G2Size]byte](c.G2)
	add(c.G2.Type, vocab.Uncompressed, p, s)
	for _, f := range c.Forms {
		t, r := f.key()
		p, s := f.impls()
		add(t, r, p, s)
	}
	var out []suites.Entry
	for _, t := range Types {
		for _, r := range Reprs {
			impls, ok := offered[entryKey{t, r}]
			na := NotApplicable(t, r)
			var lacks vocab.Why
			if !ok && na.IsZero() && c.Lacks != nil {
				lacks = c.Lacks(t, r)
			}
			switch {
			case ok && !na.IsZero():
				panic(fmt.Sprintf("bn254kit: %s offers %s/%s, which does not apply", c.Lib, t, r))
			case !ok && na.IsZero() && lacks.IsZero():
				panic(fmt.Sprintf("bn254kit: %s neither offers %s/%s nor says why not", c.Lib, t, r))
			}
			for i, l := range Layouts {
				e := suites.Entry{Key: results.Key{Type: t, Lib: c.Lib, Repr: r, Layout: l}}
				switch {
				case !na.IsZero():
					e.Unavailable = na
				case !ok:
					e.Unavailable = lacks
				default:
					im := impls[i]
					e.Constructor, e.SizeHint, e.Case, e.DefaultN, e.NWhy = im.Constructor, im.SizeHint, im.Case, im.DefaultN, im.NWhy
				}
				out = append(out, e)
			}
		}
	}
	return out
}

// eip names the standard of typ's encoding, for sentences.
func eip(typ vocab.Type) string {
	if typ == vocab.BN254G2 {
		return fmt.Sprintf("%d-byte EIP-197", G2Size)
	}
	return fmt.Sprintf("%d-byte EIP-196", G1Size)
}

// groupImpls are the constructors of g's decoded points: new(P) (or one
// []P) set by Unmarshal of point i's encoding, or by g.Copy of point i
// decoded beforehand.
func groupImpls[P any](g *Group[P]) (pointer, slice entryImpl) {
	encs := func() { Points(g.Type) }
	how := fmt.Sprintf("set by %s of point i's %s encoding (%s)", callName(g.Unmarshal.Calls, "Unmarshal"), eip(g.Type), g.Unmarshal.Note)
	set := func(dst *P, i int) bool { return g.Unmarshal.Do(dst, Points(g.Type)[i]) == nil }
	if c := g.Copy; c != nil {
		how = fmt.Sprintf("set by %s of point i, decoded by %s beforehand (%s)", c.Call, callName(g.Unmarshal.Calls, "Unmarshal"), c.Why)
		encs = func() { g.Values() }
		set = func(dst *P, i int) bool { c.Set(dst, &g.Values()[i]); return true }
	}
	if g.Holds != "" {
		how += ": " + g.Holds
	}
	f := suitekit.Fill[P]{Name: g.Name, How: how, Prepare: encs, Set: set}
	return entryImpl{f.Pointer(), g.DefaultN, g.NWhy}, entryImpl{f.Slice(), g.DefaultN, g.NWhy}
}

// encodingImpls are the constructors of the EIP encodings of g's points,
// E the encoding as a byte array: the library's Marshal kept as *E, and
// one []E of copies.
func encodingImpls[P, E any](g *Group[P]) (pointer, slice entryImpl) {
	call := fmt.Sprintf("(*%s).%s of point i (its %s encoding)", g.Name, callName(g.Marshal.Calls, "Marshal"), eip(g.Type))
	prepare := func() { g.Values() }
	pointer = entryImpl{Impl: suitekit.Made(fmt.Sprintf("%s, kept as *%s (%s)", call, suitekit.TypeName[E](), g.MarshalKept), prepare,
		func(i int) *E { return suitekit.ArrayOf[E](g.Marshal.Do(&g.Values()[i])) })}
	slice = entryImpl{Impl: suitekit.Fill[E]{How: "set to a copy of " + call, Prepare: prepare, Set: func(dst *E, i int) bool {
		return copy(suitekit.Bytes(dst), g.Marshal.Do(&g.Values()[i])) == len(suitekit.Bytes(dst))
	}}.Slice()}
	return pointer, slice
}

func (f *PointForm[P, F]) key() (vocab.Type, vocab.Repr) { return f.Group.Type, f.Repr }

func (f *PointForm[P, F]) impls() (pointer, slice entryImpl) {
	g := f.Group
	fill := suitekit.Fill[F]{Name: f.Name, How: fmt.Sprintf("set by %s of point i, decoded by %s beforehand", f.FromCall, callName(g.Unmarshal.Calls, "Unmarshal")),
		Prepare: func() { g.Values() }, Set: func(dst *F, i int) bool { f.From(dst, &g.Values()[i]); return true }}
	return entryImpl{Impl: fill.Pointer()}, entryImpl{Impl: fill.Slice()}
}

func (f *EncodingForm[P, E]) key() (vocab.Type, vocab.Repr) { return f.Group.Type, f.Repr }

func (f *EncodingForm[P, E]) impls() (pointer, slice entryImpl) {
	g := f.Group
	call := f.EncodeCall + " of point i"
	prepare := func() { g.Values() }
	pointer = entryImpl{Impl: suitekit.Made(fmt.Sprintf("%s, kept as *%s (%s)", call, suitekit.TypeName[E](), f.Kept), prepare,
		func(i int) *E { e := f.Encode(&g.Values()[i]); return &e })}
	slice = entryImpl{Impl: suitekit.Fill[E]{How: "set to a copy of " + call, Prepare: prepare,
		Set: func(dst *E, i int) bool { *dst = f.Encode(&g.Values()[i]); return true }}.Slice()}
	return pointer, slice
}

func (f *PreparedForm[P1, P2, L]) key() (vocab.Type, vocab.Repr) { return f.G2.Type, vocab.Prepared }

func (f *PreparedForm[P1, P2, L]) impls() (pointer, slice entryImpl) {
	g := f.G2
	call := f.PrepareCall + " of G2 point i (decoded by " + callName(g.Unmarshal.Calls, "Unmarshal") + " beforehand)"
	prepare := func() { g.Values() }
	pointer = entryImpl{Impl: suitekit.Made(fmt.Sprintf("%s into a new %s: what the pairing takes instead of the point", call, f.Name), prepare,
		func(i int) *L { l := new(L); *l = f.Prepare(&g.Values()[i]); return l }), DefaultN: f.DefaultN, NWhy: f.NWhy}
	slice = entryImpl{Impl: suitekit.Fill[L]{Name: f.Name, How: "set by " + call, Prepare: prepare,
		Set: func(dst *L, i int) bool { *dst = f.Prepare(&g.Values()[i]); return true }}.Slice(), DefaultN: f.DefaultN, NWhy: f.NWhy}
	return pointer, slice
}
