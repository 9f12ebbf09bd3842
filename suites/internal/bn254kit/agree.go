package bn254kit

import (
	"fmt"
	"math/big"

	"github.com/memprof/memprof/suites/internal/suitekit"
	"github.com/memprof/memprof/vocab"
)

// AgreeLib returns the library's part of the agreement check: its
// operations on encodings, each decoding with Unmarshal, computing with
// the library's call and encoding with Marshal, and its round trips
// through every representation it offers. A group without addition or
// scalar multiplication leaves them nil; MSM is the suite's to set.
func (c Curve[P1, P2]) AgreeLib() AgreeLib {
	l := AgreeLib{
		Lib:         c.Lib,
		G1Add:       binary(c.G1),
		G1ScalarMul: scaled(c.G1),
		RoundTrips: func(typ vocab.Type, enc []byte) ([]RoundTrip, error) {
			var trips []RoundTrip
			var err error
			switch typ {
			case c.G1.Type:
				trips, err = groupTrips(c.G1, enc)
			case c.G2.Type:
				trips, err = groupTrips(c.G2, enc)
			default:
				return nil, fmt.Errorf("%s: no round trip for type %q", c.Lib, typ)
			}
			if err != nil {
				return nil, err
			}
			for _, f := range c.Forms {
				if t, _ := f.key(); t != typ {
					continue
				}
				trip, ok, err := f.roundTrip(enc)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", c.Lib, err)
				}
				if ok {
					trips = append(trips, trip)
				}
			}
			return trips, nil
		},
		PairingCheck: func(e1, e2 [][]byte) (bool, error) {
			g1s, err := c.G1.decodeAll(e1)
			if err != nil {
				return false, err
			}
			g2s, err := c.G2.decodeAll(e2)
			if err != nil {
				return false, err
			}
			return c.Pairing.Do(g1s, g2s)()
		},
	}
	if offered(c.G2.Add) {
		l.G2Add = binary(c.G2)
	}
	if offered(c.G2.ScalarMul) {
		l.G2ScalarMul = scaled(c.G2)
	}
	return l
}

// binary is g's addition on encodings.
func binary[P any](g *Group[P]) func(a, b []byte) ([]byte, error) {
	return func(ea, eb []byte) ([]byte, error) {
		a, err := g.decode(ea)
		if err != nil {
			return nil, err
		}
		b, err := g.decode(eb)
		if err != nil {
			return nil, err
		}
		var sum P
		g.Add.Do(&sum, a, b)
		return g.Marshal.Do(&sum), nil
	}
}

// scaled is g's scalar multiplication on encodings.
func scaled[P any](g *Group[P]) func(p []byte, k *big.Int) ([]byte, error) {
	return func(ep []byte, k *big.Int) ([]byte, error) {
		p, err := g.decode(ep)
		if err != nil {
			return nil, err
		}
		var out P
		g.ScalarMul.Do(&out, p, k)
		return g.Marshal.Do(&out), nil
	}
}

// groupTrips decodes enc into g's type and encodes it back, directly and
// through the library's own encoding decoded again.
func groupTrips[P any](g *Group[P], enc []byte) ([]RoundTrip, error) {
	p, err := g.decode(enc)
	if err != nil {
		return nil, err
	}
	direct := g.Marshal.Do(p)
	again, err := g.decode(direct)
	if err != nil {
		return nil, fmt.Errorf("%s: decoding its own encoding: %w", g.Name, err)
	}
	return []RoundTrip{{Repr: g.Repr, Encoding: direct}, {Repr: vocab.Uncompressed, Encoding: g.Marshal.Do(again)}}, nil
}

func (f *PointForm[P, F]) roundTrip(enc []byte) (RoundTrip, bool, error) {
	p, err := f.Group.decode(enc)
	if err != nil {
		return RoundTrip{}, false, err
	}
	var x F
	f.From(&x, p)
	return RoundTrip{Repr: f.Repr, Encoding: f.Marshal.Do(&x)}, true, nil
}

func (f *EncodingForm[P, E]) roundTrip(enc []byte) (RoundTrip, bool, error) {
	g := f.Group
	p, err := g.decode(enc)
	if err != nil {
		return RoundTrip{}, false, err
	}
	e := f.Encode(p)
	var back P
	if err := f.Unmarshal.Do(&back, suitekit.Bytes(&e)); err != nil {
		return RoundTrip{}, false, fmt.Errorf("%s: decoding its %s encoding %x: %w", g.Name, f.Repr, suitekit.Bytes(&e), err)
	}
	return RoundTrip{Repr: f.Repr, Encoding: g.Marshal.Do(&back)}, true, nil
}

// roundTrip of a prepared point: the lines cannot be encoded.
func (f *PreparedForm[P1, P2, L]) roundTrip([]byte) (RoundTrip, bool, error) {
	return RoundTrip{}, false, nil
}
