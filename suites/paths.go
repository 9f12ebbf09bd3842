package suites

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// The paths: every operation timed from every representation a library
// keeps its points in, the conversions a program must make first included
// in the one timed call (compressed: decode with the subgroup check, then
// verify; Jacobian: to affine, then verify). Group.Paths makes them from
// the adapter's own rows (the decodes, the conversion to affine) and the
// uses in Group.Uses; the rows of Group.Ops and Scheme.Ops, where an
// operation starts from the form the library gives it, take precedence
// (WithPaths).

// DefaultPathOps are the operations whose paths from every
// representation the trade-off summary needs, timed by default; the
// paths of the other operations are FullMatrix.
var DefaultPathOps = []vocab.Op{vocab.Compress, vocab.Aggregate, vocab.Verify}

// opGroup is what a library's Group is to OpsWithPaths.
type opGroup interface {
	Ops() []Op
	Paths() []Op
}

// OpsWithPaths returns a library's operations: those of its two groups
// (pk: G1, sig: G2), of its scheme and more, then the paths from every
// representation of the two groups that these lack (WithPaths).
func OpsWithPaths(pk, sig opGroup, scheme interface{ Ops() []Op }, more ...[]Op) []Op {
	return WithPaths(slices.Concat(append([][]Op{pk.Ops(), sig.Ops(), scheme.Ops()}, more...)...), pk.Paths(), sig.Paths())
}

// WithPaths returns ops followed by the paths that are not already among
// them (an operation of ops starts from the form the library gives it: it
// is the row of its key).
func WithPaths(ops []Op, paths ...[]Op) []Op {
	have := map[results.Key]bool{}
	for _, o := range ops {
		have[o.Key.Normalize()] = true
	}
	out := slices.Clone(ops)
	for _, p := range slices.Concat(paths...) {
		if k := p.Key.Normalize(); !have[k] {
			have[k] = true
			out = append(out, p)
		}
	}
	return out
}

// source is one representation a path starts from: the data is made in
// that form from a point, outside the timing, and brought back to a
// point by the timed calls of impl (none for the group's own form).
type source[A any] struct {
	repr vocab.Repr
	impl implInfo
	// encoding is the form's bytes for an encoding (nil otherwise).
	encoding func(p *A) []byte
	// prepare makes the form of p and returns the timed call that puts
	// the point into dst (or returns p itself, for the group's own form).
	prepare func(p, dst *A) func() (*A, error)
	// own is the group's own form, encoding whether the row's data is
	// encoded.
	own bool
}

// sources returns the representations the group's points can start
// from: its own form, Jacobian where it has one, compressed and
// uncompressed, decoded with the subgroup check when checked (before a
// use in cryptography) or with the library's cheapest decode otherwise
// (before encoding again).
func (g Group[A, J, C, U]) sources(checked bool) []source[A] {
	u := g.Uses
	pick := func(unchecked, withCheck Impl[func(*A, []byte) func() error]) Impl[func(*A, []byte) func() error] {
		if checked || !unchecked.info().offered {
			return withCheck
		}
		return unchecked
	}
	decoding := func(repr vocab.Repr, enc func(*A) []byte, d Impl[func(*A, []byte) func() error]) source[A] {
		return source[A]{repr: repr, impl: d.info(), encoding: enc, prepare: func(p, dst *A) func() (*A, error) {
			run := d.Do(dst, enc(p))
			return func() (*A, error) { return dst, run() }
		}}
	}
	out := []source[A]{{repr: g.Repr, own: true, impl: implInfo{offered: true},
		prepare: func(p, _ *A) func() (*A, error) { return func() (*A, error) { return p, nil } }}}
	if g.Jacobian != nil && g.Convert.From == vocab.Jacobian {
		to := g.Convert.ToAffine
		out = append(out, source[A]{repr: vocab.Jacobian, impl: to.info(), prepare: func(p, dst *A) func() (*A, error) {
			var j J
			u.ToJacobian(&j, p)
			return func() (*A, error) { return to.Do(dst, &j), nil }
		}})
	}
	return append(out,
		decoding(vocab.Compressed, g.bytes, pick(g.Decompress, g.DecompressChecked)),
		decoding(vocab.Uncompressed, func(p *A) []byte { e := g.Uncompressed(p); return encodingBytes(&e) }, pick(u.FromUncompressed, u.FromUncompressedChecked)))
}

// then is the row of a path: the source's calls, then the use's; lacking
// what either lacks.
func then(s implInfo, use implInfo) implInfo {
	out := implInfo{offered: s.offered && use.offered, calls: slices.Concat(s.calls, use.calls), cores: s.cores || use.cores}
	switch {
	case !s.lacks.IsZero():
		out.lacks = s.lacks
	case !use.lacks.IsZero():
		out.lacks = use.lacks
	}
	out.note = use.note
	if len(s.calls) > 0 && s.note != "" {
		out.note = s.note + "; then " + use.note
	}
	return out
}

// times is n repetitions of a path's calls, as its path names them.
func times(n int, s implInfo) implInfo {
	if len(s.calls) == 0 {
		return s
	}
	s.calls = []string{fmt.Sprintf("%d × (%s)", n, strings.Join(s.calls, ", "))}
	s.note = strconv.Itoa(n) + " × " + s.note
	return s
}

// doesNotApply is the row of an operation whose input already is its
// output (compress from compressed).
func doesNotApply(op vocab.Op, repr vocab.Repr) implInfo {
	return implInfo{lacks: vocab.Because(vocab.DoesNotApply, "%s from %s: the data already is in the form %s produces", op, repr, op)}
}

// Paths returns the group's operations from every representation, as one
// timed call each (see the package comment above): verify, aggregate and
// compress (DefaultPathOps), and, FullMatrix, serialize,
// fast-aggregate-verify, sign and the decodes of the uncompressed
// encoding. Rows the group or the scheme already has are dropped by
// WithPaths; those here that repeat them are not listed.
func (g Group[A, J, C, U]) Paths() []Op {
	t := g.Type
	var rows []opRow
	var full []bool
	add := func(repr vocab.Repr, op vocab.Op, batch int, impl implInfo, prepare func(OpInput) (OpHarness, error), isFull bool) {
		rows = append(rows, opRow{t, repr, op, batch, impl, prepare, always})
		full = append(full, isFull)
	}
	u := g.Uses
	for _, s := range g.sources(true) {
		// verify: from every form, the point being key 0's public key or
		// signature.
		impl, verify := then(s.impl, u.Verify.info()), g.verifyPath(s)
		if s.encoding != nil && u.VerifyEncoded.info().offered {
			impl, verify = u.VerifyEncoded.info(), g.verifyEncoded(s)
		}
		add(s.repr, vocab.Verify, 1, impl, verify, false)
		if !s.own && s.repr != vocab.Jacobian {
			// aggregate: the group's own rows start from its form and
			// from Jacobian; from an encoding, every point is decoded
			// first.
			add(s.repr, vocab.Aggregate, OpAggregateN, then(times(OpAggregateN, s.impl), g.Aggregate.info()), g.aggregatePath(s), false)
		}
		if t == vocab.Signature {
			add(s.repr, vocab.FastAggregateVerify, OpAggregateN, then(s.impl, u.FastAggregateVerify.info()), g.fastAggregatePath(s), true)
		}
	}
	for _, s := range g.sources(false) {
		switch s.repr {
		case vocab.Compressed:
			add(s.repr, vocab.Compress, 1, doesNotApply(vocab.Compress, s.repr), nil, false)
			add(s.repr, vocab.Serialize, 1, then(s.impl, g.Serialize.info()), g.encodePath(s, func(p *A) []byte { e := g.Serialize.Do(p); return encodingBytes(&e) }), true)
		case vocab.Uncompressed:
			add(s.repr, vocab.Compress, 1, then(s.impl, g.Compress.info()), g.encodePath(s, func(p *A) []byte { e := g.Compress.Do(p); return encodingBytes(&e) }), false)
			add(s.repr, vocab.Serialize, 1, doesNotApply(vocab.Serialize, s.repr), nil, true)
			add(s.repr, vocab.Decompress, 1, u.FromUncompressed.info(), g.uncompressedDecoder(vocab.Decompress, u.FromUncompressed.Do), true)
			add(s.repr, vocab.DecompressChecked, 1, u.FromUncompressedChecked.info(), g.uncompressedDecoder(vocab.DecompressChecked, u.FromUncompressedChecked.Do), true)
		case vocab.Jacobian:
			add(s.repr, vocab.Serialize, 1, u.SerializeJacobian.info(), g.serializeJacobian, true)
		}
	}
	if t == vocab.Signature {
		for _, s := range g.sources(false) {
			add(s.repr, vocab.Sign, 1, g.signInto(s), g.signPath(s), true)
		}
	}
	ops := tableOps(g.Lib, g.Unavailable, rows)
	for i := range ops {
		ops[i].FullMatrix = full[i]
	}
	return ops
}

// verifyPath times the source's calls on key 0's public key or
// signature, then the verification.
func (g Group[A, J, C, U]) verifyPath(s source[A]) func(OpInput) (OpHarness, error) {
	return g.verifier(func(p Points[A], msg []byte) func() (bool, error) {
		var dst A
		load, verify := s.prepare(p.Each[0], &dst), g.Uses.Verify.Do
		return func() (bool, error) {
			q, err := load()
			if err != nil {
				return false, err
			}
			return verify(q, msg)
		}
	})
}

// verifyEncoded times the library's verification of the encoding itself.
func (g Group[A, J, C, U]) verifyEncoded(s source[A]) func(OpInput) (OpHarness, error) {
	return g.verifier(func(p Points[A], msg []byte) func() (bool, error) {
		enc, verify := s.encoding(p.Each[0]), g.Uses.VerifyEncoded.Do
		return func() (bool, error) { return verify(enc, msg) }
	})
}

// fastAggregatePath times the source's calls on the aggregate signature,
// then the fast aggregate verification.
func (g Group[A, J, C, U]) fastAggregatePath(s source[A]) func(OpInput) (OpHarness, error) {
	return g.verifier(func(p Points[A], msg []byte) func() (bool, error) {
		var dst A
		load, verify := s.prepare(p.Sum, &dst), g.Uses.FastAggregateVerify.Do
		return func() (bool, error) {
			q, err := load()
			if err != nil {
				return false, err
			}
			return verify(q, msg)
		}
	})
}

// verifier returns the Prepare of a verification path: check is made
// from the group's points and the message to verify against
// (OpVerifyMessage); Run fails when it does not verify.
func (g Group[A, J, C, U]) verifier(check func(Points[A], []byte) func() (bool, error)) func(OpInput) (OpHarness, error) {
	rejected := fmt.Errorf("%s: the %s did not verify", g.Lib, g.Type)
	return func(in OpInput) (OpHarness, error) {
		p, err := g.Points()
		if err != nil {
			return OpHarness{}, err
		}
		return BoolHarness(check(p, OpVerifyMessage(in)), rejected, OpBool), nil
	}
}

// aggregatePath times the source's calls on each of the points, then
// their aggregation.
func (g Group[A, J, C, U]) aggregatePath(s source[A]) func(OpInput) (OpHarness, error) {
	return g.valid(func(p Points[A]) OpHarness {
		dsts := make([]A, len(p.Each))
		ptrs := make([]*A, len(p.Each))
		loads := make([]func() (*A, error), len(p.Each))
		for i, q := range p.Each {
			loads[i], ptrs[i] = s.prepare(q, &dsts[i]), &dsts[i]
		}
		var out A
		sum := g.Aggregate.Do(&out, ptrs)
		res := &out
		return OpHarness{
			Run: func() (err error) {
				for _, load := range loads {
					if _, err := load(); err != nil {
						return err
					}
				}
				res, err = sum()
				return err
			},
			Result: func() ([]byte, error) { return g.bytes(res), nil },
		}
	})
}

// encodePath times the source's calls on the points' sum, then its
// encoding by encode.
func (g Group[A, J, C, U]) encodePath(s source[A], encode func(*A) []byte) func(OpInput) (OpHarness, error) {
	return g.valid(func(p Points[A]) OpHarness {
		var dst A
		load := s.prepare(p.Sum, &dst)
		var out []byte
		return OpHarness{
			Run: func() error {
				q, err := load()
				if err == nil {
					out = encode(q)
				}
				return err
			},
			Result: func() ([]byte, error) { return out, nil },
		}
	})
}

// serializeJacobian times the uncompressed encoding of the points' sum
// held in Jacobian form.
func (g Group[A, J, C, U]) serializeJacobian(in OpInput) (OpHarness, error) {
	return g.valid(func(p Points[A]) OpHarness {
		var j J
		g.Uses.ToJacobian(&j, p.Sum)
		encode := g.Uses.SerializeJacobian.Do(&j)
		var out U
		return OpHarness{
			Run:    func() error { out = encode(); return nil },
			Result: func() ([]byte, error) { return encodingBytes(&out), nil },
		}
	})(in)
}

// uncompressedDecoder returns the Prepare that times the decoding of the
// points' sum uncompressed into a reused point; for the invalid input, of
// the uncompressed form of a point op must reject (invalidUncompressed).
func (g Group[A, J, C, U]) uncompressedDecoder(op vocab.Op, do func(*A, []byte) func() error) func(OpInput) (OpHarness, error) {
	return func(in OpInput) (OpHarness, error) {
		p, err := g.Points()
		if err != nil {
			return OpHarness{}, err
		}
		u := g.Uncompressed(p.Sum)
		enc := encodingBytes(&u)
		if in.Invalid {
			if enc, err = g.invalidUncompressed(op, enc); err != nil {
				return OpHarness{}, err
			}
		}
		var dst A
		return OpHarness{Run: do(&dst, enc), Result: func() ([]byte, error) { return g.bytes(&dst), nil }}, nil
	}
}

// invalidUncompressed returns an uncompressed encoding op must reject:
// for decompress, valid with the last bit of y flipped (no longer on the
// curve); for decompress-checked, the point of fixtures/vectors.json on
// the curve outside the subgroup, decoded with the library's unchecked
// decode and encoded uncompressed (the flipped one for a library without
// an unchecked decode: a checked decode must reject it too).
func (g Group[A, J, C, U]) invalidUncompressed(op vocab.Op, valid []byte) ([]byte, error) {
	flipped := slices.Clone(valid)
	flipped[len(flipped)-1] ^= 1
	if op == vocab.Decompress || !g.Decompress.info().offered {
		return flipped, nil
	}
	enc, err := InvalidEncoding(g.Type, vocab.DecompressChecked)
	if err != nil {
		return nil, err
	}
	var p A
	if err := g.Decompress.Do(&p, enc)(); err != nil {
		return nil, fmt.Errorf("decoding the point outside the subgroup without the check: %w", err)
	}
	u := g.Uncompressed(&p)
	return encodingBytes(&u), nil
}

// signInto is the row of the sign path to the source's form: the
// signing, then the encoding or conversion into that form.
func (g Group[A, J, C, U]) signInto(s source[A]) implInfo {
	sign := g.Uses.Sign.info()
	switch s.repr {
	case vocab.Compressed:
		return then(sign, g.Compress.info())
	case vocab.Uncompressed:
		return then(sign, g.Serialize.info())
	case vocab.Jacobian:
		return then(sign, implInfo{offered: true, note: "from affine to Jacobian", calls: []string{"FromAffine"}})
	}
	return sign
}

// signPath times key 0's signature of OpMessage made into the source's
// form; its result is the signature compressed.
func (g Group[A, J, C, U]) signPath(s source[A]) func(OpInput) (OpHarness, error) {
	return g.valid(func(Points[A]) OpHarness {
		sign := g.Uses.Sign.Do
		var sig A
		var out []byte
		var j J
		into := func() {}
		result := func() []byte { return g.bytes(&sig) }
		switch s.repr {
		case vocab.Compressed:
			into = func() { e := g.Compress.Do(&sig); out = encodingBytes(&e) }
			result = func() []byte { return out }
		case vocab.Uncompressed:
			into = func() { e := g.Serialize.Do(&sig); out = encodingBytes(&e) }
			result = func() []byte {
				var back A
				if g.Deserialize(&back, out) != nil {
					return nil
				}
				return g.bytes(&back)
			}
		case vocab.Jacobian:
			into = func() { g.Jacobian.FromAffine(&j, &sig) }
			result = func() []byte { e := g.Jacobian.Compressed(&j); return encodingBytes(&e) }
		}
		return OpHarness{
			Run: func() error {
				if err := sign(&sig); err != nil {
					return err
				}
				into()
				return nil
			},
			Result: func() ([]byte, error) { return result(), nil },
		}
	})
}
