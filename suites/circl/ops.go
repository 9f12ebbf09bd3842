package circl

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"

	GG "github.com/cloudflare/circl/ecc/bls12381"
	"github.com/cloudflare/circl/sign/bls"

	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
)

// agreeSalt is the salt that makes circl's KeyGen the KeyGen of the IETF
// draft and of blst: circl uses the salt as given, the draft hashes
// "BLS-SIG-KEYGEN-SALT-" first.
var agreeSalt = func() []byte {
	h := sha256.Sum256([]byte("BLS-SIG-KEYGEN-SALT-"))
	return h[:]
}()

// opData is what the circl operations start from, built once.
type opData struct {
	sks     []*bls.PrivateKey[bls.KeyG1SigG2]
	pubs    []*bls.PublicKey[bls.KeyG1SigG2]
	pks     []GG.G1
	sigs    []GG.G2
	sigEncs [][]byte
	aggPK   GG.G1
	aggSig  GG.G2
}

var opInputs = sync.OnceValues(func() (*opData, error) {
	d := &opData{}
	for i := range suites.OpAggregateN {
		sk, err := bls.KeyGen[bls.KeyG1SigG2](suites.OpIKM(i), agreeSalt, nil)
		if err != nil {
			return nil, fmt.Errorf("circl KeyGen of op key %d: %w", i, err)
		}
		pub := sk.PublicKey()
		pkb, err := pub.MarshalBinary()
		if err != nil {
			return nil, err
		}
		var pk GG.G1
		if err := pk.SetBytes(pkb); err != nil {
			return nil, err
		}
		sigb := bls.Sign(sk, suites.OpMessage)
		var sig GG.G2
		if err := sig.SetBytes(sigb); err != nil {
			return nil, err
		}
		d.sks, d.pubs, d.pks, d.sigs, d.sigEncs = append(d.sks, sk), append(d.pubs, pub), append(d.pks, pk), append(d.sigs, sig), append(d.sigEncs, sigb)
	}
	d.aggPK = opSumG1(d.pks)
	d.aggSig = opSumG2(d.sigs)
	return d, nil
})

// opSumG1 adds projective points; circl has no other form.
func opSumG1(ps []GG.G1) GG.G1 {
	var acc GG.G1
	acc.SetIdentity()
	for i := range ps {
		acc.Add(&acc, &ps[i])
	}
	return acc
}

func opSumG2(ps []GG.G2) GG.G2 {
	var acc GG.G2
	acc.SetIdentity()
	for i := range ps {
		acc.Add(&acc, &ps[i])
	}
	return acc
}

// opEncoder is what G1 and G2 share for the encode and decode operations.
type opEncoder interface {
	Bytes() []byte
	BytesCompressed() []byte
}

// operations returns every circl operation.
func operations() []suites.Op {
	const notOffered = "not offered by circl"
	var list []suites.Op
	for _, t := range []model.Type{model.PublicKey, model.Signature} {
		g1 := t == model.PublicKey
		group := map[bool]string{true: "G1", false: "G2"}[g1]
		point := func(d *opData) opEncoder {
			if g1 {
				return d.aggPK
			}
			return d.aggSig
		}
		list = append(list,
			suites.Op{Key: model.Key{Type: t, Lib: lib, Repr: "projective", Op: "compress", Batch: 1},
				Note: fmt.Sprintf("%s.BytesCompressed: converts a copy to affine (one inversion) and returns a new slice", group),
				Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
					d, err := suites.ValidInputs(in, opInputs)
					if err != nil {
						return suites.OpHarness{}, err
					}
					var out []byte
					var run func() error
					if g1 {
						run = func() error { out = d.aggPK.BytesCompressed(); return nil }
					} else {
						run = func() error { out = d.aggSig.BytesCompressed(); return nil }
					}
					return suites.OpHarness{Run: run, Result: func() ([]byte, error) { return out, nil }}, nil
				}},
			suites.Op{Key: model.Key{Type: t, Lib: lib, Repr: "projective", Op: "serialize", Batch: 1},
				Note: fmt.Sprintf("%s.Bytes: converts a copy to affine (one inversion) and returns a new slice", group),
				Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
					d, err := suites.ValidInputs(in, opInputs)
					if err != nil {
						return suites.OpHarness{}, err
					}
					var out []byte
					var run func() error
					if g1 {
						run = func() error { out = d.aggPK.Bytes(); return nil }
					} else {
						run = func() error { out = d.aggSig.Bytes(); return nil }
					}
					return suites.OpHarness{Run: run, Result: func() ([]byte, error) { return out, nil }}, nil
				}},
			suites.Op{Key: model.Key{Type: t, Lib: lib, Repr: "compressed", Op: "decompress", Batch: 1},
				Unavailable: model.Because(model.NotOffered, "%s", fmt.Sprintf("%s: (*%s).SetBytes always checks the subgroup (see decompress-checked)", notOffered, group))},
			suites.Op{Key: model.Key{Type: t, Lib: lib, Repr: "compressed", Op: "decompress-checked", Batch: 1},
				Note: fmt.Sprintf("(*%s).SetBytes into a reused value: circl's only decode, on-curve and subgroup checks", group),
				Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
					d, err := opInputs()
					if err != nil {
						return suites.OpHarness{}, err
					}
					enc := point(d).BytesCompressed()
					if in.Invalid {
						f, err := opFixtures()
						if err != nil {
							return suites.OpHarness{}, err
						}
						enc = f.NotInSubgroupG2
						if g1 {
							enc = f.NotInSubgroupG1
						}
					}
					if g1 {
						var p GG.G1
						return suites.OpHarness{Run: func() error { return p.SetBytes(enc) }, Result: func() ([]byte, error) { return p.BytesCompressed(), nil }}, nil
					}
					var p GG.G2
					return suites.OpHarness{Run: func() error { return p.SetBytes(enc) }, Result: func() ([]byte, error) { return p.BytesCompressed(), nil }}, nil
				}},
			suites.Op{Key: model.Key{Type: t, Lib: lib, Repr: "projective", Op: "aggregate", Batch: suites.OpAggregateN},
				Note: fmt.Sprintf("(*%s).Add over %d projective points (complete formulas); circl has no affine form", group, suites.OpAggregateN),
				Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
					d, err := suites.ValidInputs(in, opInputs)
					if err != nil {
						return suites.OpHarness{}, err
					}
					if g1 {
						var out GG.G1
						return suites.OpHarness{Run: func() error { out = opSumG1(d.pks); return nil }, Result: func() ([]byte, error) { return out.BytesCompressed(), nil }}, nil
					}
					var out GG.G2
					return suites.OpHarness{Run: func() error { out = opSumG2(d.sigs); return nil }, Result: func() ([]byte, error) { return out.BytesCompressed(), nil }}, nil
				}},
		)
	}
	list = append(list,
		suites.Op{Key: model.Key{Type: "Signature", Lib: lib, Repr: "compressed", Op: "sign", Batch: 1},
			Note: "bls.Sign: hash to G2, scalar multiplication, and compression (circl returns the signature as compressed bytes)",
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				d, err := suites.ValidInputs(in, opInputs)
				if err != nil {
					return suites.OpHarness{}, err
				}
				var out []byte
				return suites.OpHarness{Run: func() error { out = bls.Sign(d.sks[0], suites.OpMessage); return nil }, Result: func() ([]byte, error) { return out, nil }}, nil
			}},
		suites.Op{Key: model.Key{Type: "Signature", Lib: lib, Repr: "compressed", Op: "verify", Batch: 1},
			Note: "bls.Verify: takes the signature compressed, so it includes decompression with the subgroup check, and validates the public key (subgroup check) on every call",
			Prepare: func(in suites.OpInput) (suites.OpHarness, error) {
				d, err := opInputs()
				if err != nil {
					return suites.OpHarness{}, err
				}
				msg := suites.OpMessage
				if in.Invalid {
					msg = suites.OpOtherMessage
				}
				var ok bool
				return suites.OpHarness{
					Run: func() error {
						ok = bls.Verify(d.pubs[0], msg, d.sigEncs[0])
						if !ok {
							return errors.New("circl: signature did not verify")
						}
						return nil
					},
					Result: func() ([]byte, error) { return suites.OpBool(ok), nil },
				}, nil
			}},
		suites.Op{Key: model.Key{Type: "Signature", Lib: lib, Repr: "compressed", Op: "fast-aggregate-verify", Batch: suites.OpAggregateN},
			Unavailable: model.Why{Kind: model.NotOffered, Reason: notOffered + ": sign/bls has the basic scheme only (no proof of possession, no FastAggregateVerify)"}},
		suites.Op{Key: model.Key{Type: "G1", Lib: lib, Repr: "projective", Op: "to-affine", Batch: 1},
			Unavailable: model.Why{Kind: model.NotOffered, Reason: notOffered + ": points are projective and toAffine is unexported (the encoders convert internally)"}},
		suites.Op{Key: model.Key{Type: "G2", Lib: lib, Repr: "projective", Op: "to-affine", Batch: 1},
			Unavailable: model.Why{Kind: model.NotOffered, Reason: notOffered + ": points are projective and toAffine is unexported (the encoders convert internally)"}},
		suites.Op{Key: model.Key{Type: "G1", Lib: lib, Repr: "projective", Op: "to-affine-batch", Batch: suites.OpBatchN},
			Unavailable: model.Why{Kind: model.NotOffered, Reason: notOffered + ": no exported batch conversion (affinize is unexported)"}},
		suites.Op{Key: model.Key{Type: "G2", Lib: lib, Repr: "projective", Op: "to-affine-batch", Batch: suites.OpBatchN},
			Unavailable: model.Why{Kind: model.NotOffered, Reason: notOffered + ": no exported batch conversion"}},
	)
	return list
}
