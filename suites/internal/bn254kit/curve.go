package bn254kit

import (
	"fmt"
	"math/big"
	"sync"

	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// Curve is one library's BN254 points: P1 and P2 are the types it decodes
// EIP-196/197 encodings into and computes with (gnark-crypto's G1Affine
// and G2Affine, go-ethereum's bn256.G1 and bn256.G2). Entries, Ops and
// AgreeLib make the library's suite from it.
type Curve[P1, P2 any] struct {
	Lib vocab.Lib
	G1  *Group[P1]
	G2  *Group[P2]
	// Pairing is a maker of the pairing check of the pairs (g1s[i],
	// g2s[i]): it builds what the library's call takes from the points,
	// outside any timing, and returns the timed call, which reports
	// whether the product of the pairings is one.
	Pairing suites.Impl[func(g1s []P1, g2s []P2) func() (bool, error)]
	// Forms are the library's other representations of its points
	// (gnark-crypto's Jacobian points, its compressed encodings, its
	// prepared G2 points), each adding its entries and operations. They
	// are made from the groups' decoded points (Decoded).
	Forms []Form
	// Lacks says why the library has none of the representations of the
	// matrix that neither its groups nor its forms are (Reprs): a
	// combination it neither offers nor explains is a programming error
	// (Entries panics).
	Lacks func(typ vocab.Type, repr vocab.Repr) vocab.Why
	// MSMLacks, when set, says why the library has no multi-scalar
	// multiplication: the operations then list one unavailable msm row per
	// group. A library with one lists its own (see MSMOps).
	MSMLacks vocab.Why
}

// Group is a library's points of one group in the type it decodes into.
type Group[P any] struct {
	Type vocab.Type // BN254G1 or BN254G2
	// Repr is what the type is: vocab.Affine (gnark-crypto's G1Affine,
	// bn256-gnark's G1, which holds one by value) or vocab.Decoded (the
	// bn256-cloudflare and bn256-google wrappers, whose coordinates are
	// hidden).
	Repr vocab.Repr
	// Name is P as Go source spells it in sentences: "bn254.G1Affine",
	// "bn256.G1".
	Name string
	// Holds says what one value keeps, for the constructor sentence: "a
	// pointer to the 128-byte curvePoint Unmarshal allocates".
	Holds string
	// Unmarshal decodes an EIP encoding into dst with the library's
	// checks; it fails on input the library rejects.
	Unmarshal suites.Impl[func(dst *P, enc []byte) error]
	// Marshal returns p's EIP encoding (the library's call: it may
	// allocate, and may convert p to affine in place); MarshalKept says
	// how the bytes are kept ("the library allocates the slice").
	Marshal     suites.Impl[func(p *P) []byte]
	MarshalKept string
	Add         suites.Impl[func(dst, a, b *P)]
	ScalarMul   suites.Impl[func(dst, a *P, k *big.Int)]
	// Copy, when set, makes an instance from a point decoded beforehand
	// instead of decoding it again: for a group whose Unmarshal is too slow
	// to make 100,000 instances (a G2 subgroup check multiplies by the
	// group order). The
	// suite's tests show it keeps what Unmarshal keeps.
	Copy *Copying[P]
	// DefaultN, if not zero, is the N of the entries of the group's type
	// when the user gives none, for a group whose constructor takes
	// milliseconds.
	DefaultN int
	// NWhy says why DefaultN (suites.Entry.NWhy).
	NWhy string
	// Values are the Distinct points decoded by Unmarshal
	// (DecodedPoints), which the instances and the other forms are made
	// from.
	Values func() []P
}

// Copying is how a library copies a decoded point into a new instance.
type Copying[P any] struct {
	// Call names it in sentences: "Set", "a copy of the value".
	Call string
	// Why says why the entries copy rather than decode.
	Why string
	Set func(dst, src *P)
}

// DecodedPoints returns a function giving the Distinct points of typ
// decoded by unmarshal, computed on first use (outside any measurement)
// and kept for the life of the process: a Group's Values. It panics if
// the library rejects one of the points, which every library must accept.
func DecodedPoints[P any](typ vocab.Type, name string, unmarshal func(dst *P, enc []byte) error) func() []P {
	return sync.OnceValue(func() []P {
		encs := Points(typ)
		out := make([]P, len(encs))
		for i, enc := range encs {
			if err := unmarshal(&out[i], enc); err != nil {
				panic(fmt.Sprintf("bn254kit: %s: decoding point %d: %v", name, i, err))
			}
		}
		return out
	})
}

// decodeAll decodes encs into new points of g.
func (g *Group[P]) decodeAll(encs [][]byte) ([]P, error) {
	out := make([]P, len(encs))
	for i, enc := range encs {
		if err := g.Unmarshal.Do(&out[i], enc); err != nil {
			return nil, fmt.Errorf("%s: decoding %x: %w", g.Name, enc, err)
		}
	}
	return out, nil
}

// decode decodes enc into a new point of g.
func (g *Group[P]) decode(enc []byte) (*P, error) {
	var p P
	if err := g.Unmarshal.Do(&p, enc); err != nil {
		return nil, fmt.Errorf("%s: decoding %x: %w", g.Name, enc, err)
	}
	return &p, nil
}

// Form is another representation of a library's points than the type it
// decodes into: PointForm, EncodingForm, PreparedForm.
type Form interface {
	// key is the type and representation of the form.
	key() (vocab.Type, vocab.Repr)
	// impls returns the form's constructors in the pointer and slice
	// layouts.
	impls() (pointer, slice entryImpl)
	// ops returns the form's operations.
	ops(lib vocab.Lib) []suites.Op
	// roundTrip decodes enc (of the form's type) into the form and encodes
	// it back; ok is false for a form that cannot be encoded (prepared).
	roundTrip(enc []byte) (trip RoundTrip, ok bool, err error)
}

// PointForm is another point type F of the group whose decoded type is P
// (gnark-crypto's G1Jac beside G1Affine), made from a decoded point, with
// its own arithmetic and encoding.
type PointForm[P, F any] struct {
	Group *Group[P]
	Repr  vocab.Repr
	Name  string // "bn254.G1Jac"
	// FromCall names From in sentences ("FromAffine"); From sets dst to p,
	// as a program converts a point (not timed).
	FromCall string
	From     func(dst *F, p *P)
	// Marshal encodes p to the EIP encoding (through the affine point, for
	// gnark-crypto).
	Marshal   suites.Impl[func(p *F) []byte]
	Add       suites.Impl[func(dst, a, b *F)]
	ScalarMul suites.Impl[func(dst, a *F, k *big.Int)]
}

// EncodingForm is another encoding E of a group's points (gnark-crypto's
// compressed one: x and a flag for y), made from a decoded point and
// decoded back with the library's checks.
type EncodingForm[P, E any] struct {
	Group *Group[P]
	Repr  vocab.Repr
	// EncodeCall names Encode in sentences ("(*bn254.G1Affine).Bytes"),
	// Kept how the bytes are kept ("returned by value, moved to the
	// heap"); Encode encodes p (not timed).
	EncodeCall, Kept string
	Encode           func(p *P) E
	// Unmarshal decodes enc into dst with the library's checks.
	Unmarshal suites.Impl[func(dst *P, enc []byte) error]
	// Reject returns an encoding Unmarshal must reject.
	Reject func() []byte
}

// PreparedForm is a G2 point prepared for pairings: L is what the
// library computes of the point once (gnark-crypto's Miller-loop lines)
// and takes instead of it in every pairing with that point.
type PreparedForm[P1, P2, L any] struct {
	G1   *Group[P1]
	G2   *Group[P2]
	Name string // "bn254.Lines"
	// PrepareCall names Prepare in sentences ("bn254.PrecomputeLines");
	// Prepare computes q's lines (not timed in the pairing check).
	PrepareCall string
	Prepare     func(q *P2) L
	// Pairing is a maker of the pairing check of g1s against prepared G2
	// points.
	Pairing suites.Impl[func(g1s []P1, lines []L) func() (bool, error)]
	// DefaultN is the N of the form's entries when the user gives none,
	// and NWhy why (suites.Entry.NWhy).
	DefaultN int
	NWhy     string
}

// Suite returns the library's suite: its entries, its operations (and
// more, the library's own: gnark-crypto's multi-scalar multiplications)
// and its part of the agreement check (agree, AgreeLib's, which a suite
// may complete).
func (c Curve[P1, P2]) Suite(name string, modules []string, agree AgreeLib, more ...suites.Op) suites.Suite {
	return suites.Suite{
		Name:        name,
		Modules:     modules,
		Entries:     c.Entries(),
		Ops:         append(c.Ops(), more...),
		FamilyAgree: []suites.FamilyAgreeLib{{Family: vocab.BN254, Lib: c.Lib, Impl: agree}},
	}
}
