package agree

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/suites"
)

// The EIP-2537 part of the check: go-ethereum's test vectors of the
// BLS12-381 precompiles (fixtures/eip2537), run through every library
// that offers each operation (suites.EIP2537). The precompiles' encodings
// are converted here: each field element is 64 bytes, 16 zero bytes then
// 48 big-endian (not below the modulus: refused); a G1 point x‖y (128
// bytes), a G2 point x.c0‖x.c1‖y.c0‖y.c1 (256 bytes), the point at
// infinity all zeros; a scalar 32 bytes big-endian. A passing vector's
// output must be the library's result, converted back; a failing one
// (fail- files) must be refused, by the conversion (a length, a padding)
// or by the library (a point off the curve or outside the subgroup, a
// coordinate not below the modulus).

// The EIP-2537 sizes.
const (
	eipFp      = 64 // a padded field element
	eipPad     = 16 // its zero padding
	blsFp      = 48 // the field element itself
	eipG1      = 2 * eipFp
	eipG2      = 4 * eipFp
	eipScalar  = 32
	eipPair    = eipG1 + eipG2
	zcashInf   = 0x40 // the ZCash encoding's infinity flag
	zcashFlags = 0xe0 // the ZCash encoding's three flag bits
)

// errEIP2537 is the conversion's refusal of an input.
var errEIP2537 = errors.New("EIP-2537")

// eipOp is one precompile of the vectors: which library function it
// needs, and how it runs on a library.
type eipOp struct {
	file    string // "blsG1Add": the vectors are file.json and fail-file.json
	offers  func(e suites.EIP2537) bool
	run     func(e suites.EIP2537, input []byte) ([]byte, error)
	inLen   func(n int) bool // a valid input length
	summary string
}

var eipOps = []eipOp{
	{"blsG1Add", func(e suites.EIP2537) bool { return e.G1Add != nil }, func(e suites.EIP2537, in []byte) ([]byte, error) {
		return g1Layout.addition(e.G1Add, in)
	}, fixedLen(2 * eipG1), "G1 addition"},
	{"blsG2Add", func(e suites.EIP2537) bool { return e.G2Add != nil }, func(e suites.EIP2537, in []byte) ([]byte, error) {
		return g2Layout.addition(e.G2Add, in)
	}, fixedLen(2 * eipG2), "G2 addition"},
	{"blsG1Mul", func(e suites.EIP2537) bool { return e.G1Mul != nil }, func(e suites.EIP2537, in []byte) ([]byte, error) {
		p, err := g1Layout.fromEIP(in[:eipG1])
		if err != nil {
			return nil, err
		}
		return g1Layout.toEIP(e.G1Mul(p, in[eipG1:]))
	}, fixedLen(eipG1 + eipScalar), "G1 scalar multiplication"},
	{"blsPairing", func(e suites.EIP2537) bool { return e.PairingCheck != nil }, func(e suites.EIP2537, in []byte) ([]byte, error) {
		var g1s, g2s [][]byte
		for i := 0; i < len(in); i += eipPair {
			p, err := g1Layout.fromEIP(in[i : i+eipG1])
			if err != nil {
				return nil, err
			}
			q, err := g2Layout.fromEIP(in[i+eipG1 : i+eipPair])
			if err != nil {
				return nil, err
			}
			g1s, g2s = append(g1s, p), append(g2s, q)
		}
		ok, err := e.PairingCheck(g1s, g2s)
		if err != nil {
			return nil, err
		}
		out := make([]byte, 32)
		if ok {
			out[31] = 1
		}
		return out, nil
	}, func(n int) bool { return n > 0 && n%eipPair == 0 }, "pairing check"},
	{"blsMapG1", func(e suites.EIP2537) bool { return e.MapG1 != nil }, func(e suites.EIP2537, in []byte) ([]byte, error) {
		u, err := fpFromEIP(in)
		if err != nil {
			return nil, err
		}
		return g1Layout.toEIP(e.MapG1(u))
	}, fixedLen(eipFp), "map to G1"},
	{"blsMapG2", func(e suites.EIP2537) bool { return e.MapG2 != nil }, func(e suites.EIP2537, in []byte) ([]byte, error) {
		c0, err := fpFromEIP(in[:eipFp])
		if err != nil {
			return nil, err
		}
		c1, err := fpFromEIP(in[eipFp:])
		if err != nil {
			return nil, err
		}
		return g2Layout.toEIP(e.MapG2(append(c1, c0...)))
	}, fixedLen(2 * eipFp), "map to G2"},
}

func fixedLen(n int) func(int) bool { return func(m int) bool { return m == n } }

// fpFromEIP converts a padded field element: its 16 zero bytes, then 48
// that must not set the ZCash encoding's flag bits (a value of 2^381 or
// more, above the modulus); whether it is below the modulus is the
// library's to check.
func fpFromEIP(b []byte) ([]byte, error) {
	if !isZero(b[:eipPad]) {
		return nil, fmt.Errorf("%w: a field element's top %d bytes are not zero", errEIP2537, eipPad)
	}
	fe := b[eipPad:eipFp]
	if fe[0]&zcashFlags != 0 {
		return nil, fmt.Errorf("%w: a field element of 2^381 or more, not below the modulus", errEIP2537)
	}
	return bytes.Clone(fe), nil
}

func isZero(b []byte) bool { return !bytes.ContainsFunc(b, func(r rune) bool { return r != 0 }) }

// pointLayout is how the points of a group are encoded: the precompile
// pads each field element to 64 bytes; the ZCash encoding the libraries
// take has them unpadded, flags in the top bits, and for G2 each Fp²
// element's c1 before its c0. order lists the element at each position of
// the other encoding (its own inverse: it swaps pairs or nothing).
type pointLayout struct {
	group string
	order []int
}

var (
	g1Layout = pointLayout{"G1", []int{0, 1}}
	g2Layout = pointLayout{"G2", []int{1, 0, 3, 2}}
)

// fromEIP converts a point to the ZCash uncompressed encoding.
func (l pointLayout) fromEIP(b []byte) ([]byte, error) {
	if isZero(b) {
		out := make([]byte, len(l.order)*blsFp)
		out[0] = zcashInf
		return out, nil
	}
	fe := make([][]byte, len(l.order))
	for i := range fe {
		f, err := fpFromEIP(b[i*eipFp : (i+1)*eipFp])
		if err != nil {
			return nil, err
		}
		fe[i] = f
	}
	out := make([]byte, 0, len(l.order)*blsFp)
	for _, i := range l.order {
		out = append(out, fe[i]...)
	}
	return out, nil
}

// toEIP converts a library's result to the precompile's output.
func (l pointLayout) toEIP(b []byte, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	if size := len(l.order) * blsFp; len(b) != size {
		return nil, fmt.Errorf("a %s result of %d bytes, want %d", l.group, len(b), size)
	}
	if b[0]&zcashInf != 0 {
		return make([]byte, len(l.order)*eipFp), nil
	}
	out := make([]byte, 0, len(l.order)*eipFp)
	for _, i := range l.order {
		out = append(out, pad(b[i*blsFp:(i+1)*blsFp])...)
	}
	return out, nil
}

// pad is a field element padded to 64 bytes.
func pad(fe []byte) []byte { return append(make([]byte, eipPad), fe...) }

// addition runs add, a library's addition in the layout's group, on a
// precompile input of two points.
func (l pointLayout) addition(add func(a, b []byte) ([]byte, error), in []byte) ([]byte, error) {
	half := len(in) / 2
	a, err := l.fromEIP(in[:half])
	if err != nil {
		return nil, err
	}
	b, err := l.fromEIP(in[half:])
	if err != nil {
		return nil, err
	}
	return l.toEIP(add(a, b))
}

// eipFileName names a vectors file in disagreements.
func eipFileName(name string) string {
	return fixtures.EIP2537Dir + "/" + name + " (go-ethereum v1.17.10)"
}

// EIP2537Cases is the number of vectors the EIP-2537 part runs: every
// vector of every file of fixtures/eip2537.
func EIP2537Cases() (int, error) {
	n := 0
	for _, op := range eipOps {
		for _, name := range []string{op.file + ".json", "fail-" + op.file + ".json"} {
			f, err := fixtures.LoadPrecompileFile(fixtures.EIP2537Dir, name)
			if err != nil {
				return 0, err
			}
			n += len(f.Vectors)
		}
	}
	return n, nil
}

// CheckEIP2537 runs every vector of fixtures/eip2537 through each of libs
// that offers its operation; see the comment at the top of this file. The
// error is a *Disagreement naming the file, the vector and the library, or
// another error when the vectors cannot be read.
func CheckEIP2537(libs []suites.AgreeLib) error {
	for _, op := range eipOps {
		for _, name := range []string{op.file + ".json", "fail-" + op.file + ".json"} {
			f, err := fixtures.LoadPrecompileFile(fixtures.EIP2537Dir, name)
			if err != nil {
				return err
			}
			for _, v := range f.Vectors {
				for _, l := range libs {
					if !op.offers(l.EIP2537) {
						continue
					}
					if d := runEIP2537(op, l, name, v); d != nil {
						return d
					}
				}
			}
		}
	}
	return nil
}

// runEIP2537 runs one vector with one library and returns its
// disagreement, or nil.
func runEIP2537(op eipOp, l suites.AgreeLib, file string, v fixtures.PrecompileVector) *Disagreement {
	var out []byte
	var err error
	if !op.inLen(len(v.Input)) {
		err = fmt.Errorf("%w: invalid input length %d", errEIP2537, len(v.Input))
	} else {
		out, err = op.run(l.EIP2537, v.Input)
	}
	d := &Disagreement{Case: file + ": " + v.Name, Check: "EIP-2537 " + op.summary, Lib: l.Lib, Against: eipFileName(file)}
	switch {
	case v.Fails() && err == nil:
		d.Got, d.Detail = out, "accepts an input the vector rejects ("+v.ExpectedError+")"
	case !v.Fails() && err != nil:
		d.Detail = err.Error()
	case !v.Fails() && !bytes.Equal(out, v.Expected):
		d.Got, d.Want = out, v.Expected
	default:
		return nil
	}
	return d
}
