package suites

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// The operations of every library are one table (Group.Ops and Scheme.Ops
// below): a row names an operation (the type it handles, the
// representation it starts from, the op, the batch), the inputs it runs on
// and what its Result returns, which WantOpResult knows. What a library
// writes is an adapter: how it does each row (an Impl), for each group (a
// Group, written once by the library for its G1 and G2 types and
// instantiated twice) and for the signature scheme (a Scheme).

// Impl is how a library does one operation of the table: Do, with Note
// saying exactly what is timed (the API called and the checks it runs); or
// Lacks, of kind NotOffered (see NotOffered), saying why the library does
// not offer it. An Impl with neither makes an operation that NewRegistry
// rejects.
type Impl[F any] struct {
	Note  string
	Do    F
	Lacks vocab.Why
	// Calls names the library calls Do makes, in order (see Via): they
	// make the row's path.
	Calls []string
	// Cores says that what Do allocates depends on the number of cores
	// (see OnCores).
	Cores bool
}

// Via returns i naming the library calls its Do makes, in order
// ("Uncompress", "SigValidate"): a row's path joins them, after the calls
// that bring the data from the row's representation.
func (i Impl[F]) Via(calls ...string) Impl[F] {
	i.Calls = calls
	return i
}

// OnCores returns i marked as allocating according to the number of
// cores: the library starts worker goroutines up to GOMAXPROCS, or splits
// the call into as many tasks, each with its own scratch.
func (i Impl[F]) OnCores() Impl[F] {
	i.Cores = true
	return i
}

// Offer returns the Impl that does an operation with do, timed as note
// says.
func Offer[F any](note string, do F) Impl[F] { return Impl[F]{Note: note, Do: do} }

// NotOffered returns the reason of an operation lib does not offer, of kind
// NotOffered: "not offered by <lib>: " and the formatted reason.
func NotOffered(lib vocab.Lib, format string, a ...any) vocab.Why {
	return vocab.Why{Kind: vocab.NotOffered, Reason: "not offered by " + string(lib) + ": " + fmt.Sprintf(format, a...)}
}

// implInfo is what the table needs of an Impl once its Do is wrapped.
type implInfo struct {
	note    string
	lacks   vocab.Why
	offered bool
	calls   []string
	cores   bool
}

func (i Impl[F]) info() implInfo {
	do := reflect.ValueOf(&i.Do).Elem()
	nilDo := do.Kind() == reflect.Func && do.IsNil()
	return implInfo{note: i.Note, lacks: i.Lacks, offered: i.Note != "" && !nilDo, calls: i.Calls, cores: i.Cores}
}

// Encoding is the type of an encoded point as a library returns it: a new
// slice (blst, circl) or an array by value (gnark: 48 or 96 bytes for a G1
// point compressed or not, 96 or 192 for a G2 point).
type Encoding interface {
	[]byte | [48]byte | [96]byte | [192]byte
}

// encodingBytes returns the bytes of *e, sharing its memory.
func encodingBytes[E Encoding](e *E) []byte { return reflect.ValueOf(e).Elem().Bytes() }

// Points is what the operations of a group start from, made once by the
// library and shared by every harness; no operation modifies it.
type Points[A any] struct {
	// Each holds the OpAggregateN points: the public keys of the keys
	// OpIKM(i), or their signatures of OpMessage.
	Each []*A
	// Sum is their sum: the point every encode and decode operation
	// handles.
	Sum *A
}

// Keys is what the operations start from, made once by each library: the
// OpAggregateN secret keys of OpIKM(i), their public keys (points P of G1)
// and their signatures of OpMessage (points S of G2).
type Keys[SK, P, S any] struct {
	SKs  []SK
	PKs  Points[P]
	Sigs Points[S]
}

// PointsOf returns a Group's Points: the points pick selects from what
// load makes.
func PointsOf[D, A any](load func() (D, error), pick func(D) Points[A]) func() (Points[A], error) {
	return func() (Points[A], error) {
		d, err := load()
		if err != nil {
			return Points[A]{}, err
		}
		return pick(d), nil
	}
}

// Group is a library's adapter for the operations on one group: G1, which
// holds the min-pk public keys, or G2, which holds the signatures. The
// library writes it once, generic over its G1 and G2 types, and
// instantiates it twice. A is the type of the points the encode, decode and
// aggregate operations handle (affine; circl's projective), J the type of
// its Jacobian points, C and U the types its compressed and uncompressed
// encodings come in.
//
// The functions in Impls are timed. They receive their inputs made outside
// the timing, and, where the operation makes a point, a value the harness
// reuses (p, out, acc). A Do that needs state of its own (a decoder, a
// scratch point) is a maker: called once when the harness is prepared, it
// returns the call that is timed. The other functions are not timed: they
// make the inputs and the results.
type Group[A, J any, C, U Encoding] struct {
	Lib vocab.Lib
	// Type is PublicKey (G1) or Signature (G2): the type of the encode,
	// decode and aggregate rows. The conversions are listed under the
	// group's own name (G1, G2).
	Type vocab.Type
	// Repr is the representation of A.
	Repr vocab.Repr
	// Unavailable, when set, makes every row unavailable for that reason
	// (blst without cgo); only the representations and whether Jacobian is
	// set are read then.
	Unavailable vocab.Why
	// Points returns the inputs, made once.
	Points func() (Points[A], error)
	// Compressed and Uncompressed encode p.
	Compressed   func(p *A) C
	Uncompressed func(p *A) U
	// Deserialize decodes an uncompressed encoding into p with the checks
	// the library makes by default (for the agreement check's round trip).
	Deserialize func(p *A, enc []byte) error

	Compress  Impl[func(p *A) C]
	Serialize Impl[func(p *A) U]
	// Decompress and DecompressChecked are makers of the decoding of the
	// compressed enc into p: checking only that the point is on the curve,
	// and checking the subgroup too.
	Decompress, DecompressChecked Impl[func(p *A, enc []byte) func() error]
	// Aggregate is a maker of the sum of points; the sum may be out or a
	// new point.
	Aggregate Impl[func(out *A, points []*A) func() (*A, error)]

	// Jacobian holds the rows on Jacobian points; nil for a library that
	// has none (circl), which then has no such rows.
	Jacobian *Jacobian[A, J, C, U]
	// Convert holds the conversions to affine.
	Convert Conversions[A, J]
	// Uses holds what the paths from every representation need beyond
	// the rows above (see Paths).
	Uses Uses[A, J, U]
}

// Uses is the part of a Group that the paths from every representation
// (Group.Paths) need beyond the group's own rows: the decodes of the
// uncompressed encoding, and the uses of a point that the paths end in.
type Uses[A, J any, U Encoding] struct {
	// FromUncompressed and FromUncompressedChecked are makers of the
	// decoding of the uncompressed enc into p: checking only that the
	// point is on the curve, and checking the subgroup too. A library
	// whose decode always checks offers FromUncompressedChecked only.
	FromUncompressed, FromUncompressedChecked Impl[func(p *A, enc []byte) func() error]
	// Verify checks, against msg, key 0's signature of OpMessage with p
	// in place of key 0's public key (PublicKey) or of the signature
	// itself (Signature); the other operand is affine.
	Verify Impl[func(p *A, msg []byte) (bool, error)]
	// VerifyEncoded, when offered, verifies an encoding of p as Verify
	// does, for a library whose verify takes bytes: the verify paths from
	// an encoding call it instead of decoding first.
	VerifyEncoded Impl[func(enc, msg []byte) (bool, error)]
	// FastAggregateVerify checks p as the aggregate signature of the
	// OpAggregateN keys (Signature only).
	FastAggregateVerify Impl[func(p *A, msg []byte) (bool, error)]
	// Sign signs OpMessage with key 0 into p (Signature only).
	Sign Impl[func(p *A) error]
	// SerializeJacobian is a maker of the uncompressed encoding of j.
	SerializeJacobian Impl[func(j *J) func() U]
	// ToJacobian sets j to p in Jacobian form with Z != 1, as a program
	// that computed p holds it; it makes the inputs of the paths from
	// Jacobian (not timed).
	ToJacobian func(j *J, p *A)
}

// Jacobian is the part of a Group on Jacobian points.
type Jacobian[A, J any, C, U Encoding] struct {
	// FromAffine sets j to p; AddMixed adds p to j. They make the inputs:
	// the Jacobian sum the compress row encodes has Z != 1.
	FromAffine, AddMixed func(j *J, p *A)
	// Compressed and Uncompressed encode j.
	Compressed   func(j *J) C
	Uncompressed func(j *J) U
	// Compress is a maker of the compression of j.
	Compress Impl[func(j *J) func() C]
	// AddAssign adds q to acc: the aggregate row adds the OpAggregateN
	// points in Jacobian form with it, and the sum stays Jacobian.
	AddAssign Impl[func(acc, q *J)]
}

// Conversions is the part of a Group that converts points to affine.
type Conversions[A, J any] struct {
	// From is the representation the conversions start from: jacobian, or
	// circl's projective.
	From vocab.Repr
	// Points returns the n points P_i = OpBatchScalar(i)·generator in
	// Jacobian form.
	Points func(n int) []J
	// ToAffine converts p; the result may be out or a new point.
	ToAffine Impl[func(out *A, p *J) *A]
	// ToAffineBatch converts the points in one call.
	ToAffineBatch Impl[func(ps []J) []A]
}

// Scheme is a library's adapter for the signature operations: min-pk with
// OpDST, the keys of OpIKM(i), signatures of OpMessage. D is what the
// library makes its inputs into.
type Scheme[D any] struct {
	Lib vocab.Lib
	// Repr is the representation the keys and signatures are in, and the
	// one sign produces: affine; circl's compressed.
	Repr vocab.Repr
	// Unavailable, when set, makes every row unavailable for that reason.
	Unavailable vocab.Why
	// Inputs returns the inputs, made once.
	Inputs func() (D, error)
	// Sign prepares key 0's signature of OpMessage: Run signs, Result
	// returns the signature compressed.
	Sign Impl[func(d D) OpHarness]
	// Verify and FastAggregateVerify are makers of the verification against
	// msg (OpMessage, or OpOtherMessage for the input they must reject) of
	// key 0's signature, and of the OpAggregateN keys' aggregate signature.
	Verify, FastAggregateVerify Impl[func(d D, msg []byte) func() (bool, error)]
}

// opRow is one row of the table.
type opRow struct {
	typ     vocab.Type
	repr    vocab.Repr
	op      vocab.Op
	batch   int
	impl    implInfo
	prepare func(OpInput) (OpHarness, error)
	// listed is false for a row of a representation the library does not
	// have: it makes no operation.
	listed bool
}

// always is the listed column of the rows every library has.
const always = true

// rawGroup is the group a min-pk type's points are in.
var rawGroup = map[vocab.Type]vocab.Type{vocab.PublicKey: vocab.G1, vocab.Signature: vocab.G2}

// Ops returns the operations of the group: encode, decode and aggregate
// (the Jacobian ones where the library has Jacobian points), then the
// conversions, listed under the group's own name.
func (g Group[A, J, C, U]) Ops() []Op {
	t, r, raw, cv := g.Type, g.Repr, rawGroup[g.Type], g.Convert
	jac, hasJac := g.Jacobian, g.Jacobian != nil
	if !hasJac {
		jac = &Jacobian[A, J, C, U]{}
	}
	return tableOps(g.Lib, g.Unavailable, []opRow{
		{t, r, vocab.Compress, 1, g.Compress.info(), g.valid(encoder(g.Compress.Do)), always},
		{t, r, vocab.Serialize, 1, g.Serialize.info(), g.valid(encoder(g.Serialize.Do)), always},
		{t, vocab.Jacobian, vocab.Compress, 1, jac.Compress.info(), g.valid(g.compressJacobian), hasJac},
		{t, vocab.Compressed, vocab.Decompress, 1, g.Decompress.info(), g.decoder(vocab.Decompress, g.Decompress.Do), always},
		{t, vocab.Compressed, vocab.DecompressChecked, 1, g.DecompressChecked.info(), g.decoder(vocab.DecompressChecked, g.DecompressChecked.Do), always},
		{t, r, vocab.Aggregate, OpAggregateN, g.Aggregate.info(), g.valid(g.aggregate), always},
		{t, vocab.Jacobian, vocab.Aggregate, OpAggregateN, jac.AddAssign.info(), g.valid(g.aggregateJacobian), hasJac},
		{raw, cv.From, vocab.ToAffine, 1, cv.ToAffine.info(), g.conversion(1, g.toAffine), always},
		{raw, cv.From, vocab.ToAffineBatch, OpBatchN, cv.ToAffineBatch.info(), g.conversion(OpBatchN, g.toAffineBatch), always},
	})
}

// Ops returns the signature operations: sign, verify and
// fast-aggregate-verify, on Signature.
func (s Scheme[D]) Ops() []Op {
	return tableOps(s.Lib, s.Unavailable, []opRow{
		{vocab.Signature, s.Repr, vocab.Sign, 1, s.Sign.info(), s.sign, always},
		{vocab.Signature, s.Repr, vocab.Verify, 1, s.Verify.info(), s.verifier(s.Verify.Do, "signature did not verify"), always},
		{vocab.Signature, s.Repr, vocab.FastAggregateVerify, OpAggregateN, s.FastAggregateVerify.info(), s.verifier(s.FastAggregateVerify.Do, "aggregate signature did not verify"), always},
	})
}

// tableOps turns the listed rows into operations: unavailable for why when
// it is set, else for the reason the library lacks the row, else prepared
// by the row.
func tableOps(lib vocab.Lib, why vocab.Why, rows []opRow) []Op {
	var ops []Op
	for _, r := range rows {
		if !r.listed {
			continue
		}
		o := Op{Key: results.Key{Type: r.typ, Lib: lib, Repr: r.repr, Op: r.op, Batch: r.batch}}
		switch {
		case !why.IsZero():
			o.Unavailable = why
		case !r.impl.lacks.IsZero():
			o.Unavailable = r.impl.lacks
		case r.impl.offered:
			o.Note, o.Prepare = r.impl.note, r.prepare
			o.Path, o.CoresDependent = strings.Join(r.impl.calls, ", "), r.impl.cores
		}
		ops = append(ops, o)
	}
	return ops
}

// valid returns the Prepare of a row that has no input it must reject:
// harness prepares it on the group's points.
func (g Group[A, J, C, U]) valid(harness func(Points[A]) OpHarness) func(OpInput) (OpHarness, error) {
	return func(in OpInput) (OpHarness, error) {
		p, err := ValidInputs(in, g.Points)
		if err != nil {
			return OpHarness{}, err
		}
		return harness(p), nil
	}
}

// encoder returns the harness that times out = do(p.Sum).
func encoder[A any, E Encoding](do func(*A) E) func(Points[A]) OpHarness {
	return func(p Points[A]) OpHarness {
		var out E
		return OpHarness{
			Run:    func() error { out = do(p.Sum); return nil },
			Result: func() ([]byte, error) { return encodingBytes(&out), nil },
		}
	}
}

// bytes returns p compressed.
func (g Group[A, J, C, U]) bytes(p *A) []byte {
	c := g.Compressed(p)
	return encodingBytes(&c)
}

// decoder returns the Prepare that times the decoding of Sum compressed
// into a reused point; for the invalid input, of the point of
// fixtures/vectors.json that op must reject.
func (g Group[A, J, C, U]) decoder(op vocab.Op, do func(*A, []byte) func() error) func(OpInput) (OpHarness, error) {
	return func(in OpInput) (OpHarness, error) { return g.decode(in, op, do) }
}

func (g Group[A, J, C, U]) decode(in OpInput, op vocab.Op, do func(*A, []byte) func() error) (OpHarness, error) {
	p, err := g.Points()
	if err != nil {
		return OpHarness{}, err
	}
	enc := g.bytes(p.Sum)
	if in.Invalid {
		if enc, err = InvalidEncoding(g.Type, op); err != nil {
			return OpHarness{}, err
		}
	}
	var dst A
	return OpHarness{Run: do(&dst, enc), Result: func() ([]byte, error) { return g.bytes(&dst), nil }}, nil
}

// InvalidEncoding returns the compressed point of fixtures/vectors.json in
// t's group that op must reject: one not on the curve for decompress, one
// on the curve outside the subgroup for decompress-checked.
func InvalidEncoding(t vocab.Type, op vocab.Op) ([]byte, error) {
	v, err := fixtures.Load()
	if err != nil {
		return nil, err
	}
	pick := map[vocab.Type]map[vocab.Op][]byte{
		vocab.PublicKey: {vocab.Decompress: v.Ops.NotOnCurveG1, vocab.DecompressChecked: v.Ops.NotInSubgroupG1},
		vocab.Signature: {vocab.Decompress: v.Ops.NotOnCurveG2, vocab.DecompressChecked: v.Ops.NotInSubgroupG2},
	}
	enc := pick[t][op]
	if len(enc) == 0 {
		return nil, fmt.Errorf("fixtures/vectors.json has no invalid %s input for %s", t, op)
	}
	return enc, nil
}

// aggregate times the sum of the points.
func (g Group[A, J, C, U]) aggregate(p Points[A]) OpHarness {
	var out A
	sum := g.Aggregate.Do(&out, p.Each)
	res := &out
	return OpHarness{
		Run:    func() (err error) { res, err = sum(); return err },
		Result: func() ([]byte, error) { return g.bytes(res), nil },
	}
}

// compressJacobian times the compression of the points' sum made with
// mixed additions in Jacobian form (Z != 1).
func (g Group[A, J, C, U]) compressJacobian(p Points[A]) OpHarness {
	jac := g.Jacobian
	var sum J
	jac.FromAffine(&sum, p.Each[0])
	for _, q := range p.Each[1:] {
		jac.AddMixed(&sum, q)
	}
	compress := jac.Compress.Do(&sum)
	var out C
	return OpHarness{
		Run:    func() error { out = compress(); return nil },
		Result: func() ([]byte, error) { return encodingBytes(&out), nil },
	}
}

// aggregateJacobian times the sum of the points converted to Jacobian
// form beforehand.
func (g Group[A, J, C, U]) aggregateJacobian(p Points[A]) OpHarness {
	jac := g.Jacobian
	js := make([]J, len(p.Each))
	for i, q := range p.Each {
		jac.FromAffine(&js[i], q)
	}
	add := jac.AddAssign.Do
	var acc J
	return OpHarness{
		Run: func() error {
			acc = js[0]
			for i := 1; i < len(js); i++ {
				add(&acc, &js[i])
			}
			return nil
		},
		Result: func() ([]byte, error) { c := jac.Compressed(&acc); return encodingBytes(&c), nil },
	}
}

// conversion returns the Prepare of a conversion row: harness prepares it
// on the first n points P_i; it has no input to reject.
func (g Group[A, J, C, U]) conversion(n int, harness func([]J) OpHarness) func(OpInput) (OpHarness, error) {
	return func(in OpInput) (OpHarness, error) {
		if in.Invalid {
			return OpHarness{}, ErrNoInvalidInput
		}
		return harness(g.Convert.Points(n)), nil
	}
}

// toAffine times the conversion of P_0.
func (g Group[A, J, C, U]) toAffine(ps []J) OpHarness {
	convert := g.Convert.ToAffine.Do
	var dst A
	out := &dst
	return OpHarness{
		Run:    func() error { out = convert(&dst, &ps[0]); return nil },
		Result: func() ([]byte, error) { return g.bytes(out), nil },
	}
}

// toAffineBatch times the conversion of the points in one call.
func (g Group[A, J, C, U]) toAffineBatch(ps []J) OpHarness {
	convert := g.Convert.ToAffineBatch.Do
	var out []A
	return OpHarness{
		Run: func() error { out = convert(ps); return nil },
		Result: func() ([]byte, error) {
			return OpBatchHash(func(i int) []byte { return g.bytes(&out[i]) }, len(out)), nil
		},
	}
}

// sign prepares the library's signing; it has no input to reject.
func (s Scheme[D]) sign(in OpInput) (OpHarness, error) {
	d, err := ValidInputs(in, s.Inputs)
	if err != nil {
		return OpHarness{}, err
	}
	return s.Sign.Do(d), nil
}

// verifier returns the Prepare that times a verification against
// OpVerifyMessage(in); Run fails with "<lib>: <failure>" when it does not
// verify.
func (s Scheme[D]) verifier(do func(D, []byte) func() (bool, error), failure string) func(OpInput) (OpHarness, error) {
	rejected := fmt.Errorf("%s: %s", s.Lib, failure)
	return func(in OpInput) (OpHarness, error) {
		d, err := s.Inputs()
		if err != nil {
			return OpHarness{}, err
		}
		return BoolHarness(do(d, OpVerifyMessage(in)), rejected, OpBool), nil
	}
}

// SignWith returns the signing into a point P with the inputs load
// makes: the Sign of a Group's Uses.
func SignWith[D, P any](load func() (D, error), sign func(D, P) error) func(P) error {
	return func(p P) error {
		d, err := load()
		if err != nil {
			return err
		}
		return sign(d, p)
	}
}

// VerifyWith returns a use of a point (or an encoding) P that verifies
// with the inputs load makes: the verification of a Group's Uses, which
// needs the other operand besides the point.
func VerifyWith[D, P any](load func() (D, error), verify func(D, P, []byte) (bool, error)) func(P, []byte) (bool, error) {
	return func(p P, msg []byte) (bool, error) {
		d, err := load()
		if err != nil {
			return false, err
		}
		return verify(d, p, msg)
	}
}
