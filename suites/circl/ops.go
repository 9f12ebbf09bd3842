package circl

import (
	"crypto/sha256"
	"fmt"
	"slices"
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

// opData is what the circl operations start from, built once: with the
// keys, the public keys and the signatures in the forms sign/bls takes.
type opData struct {
	suites.Keys[*bls.PrivateKey[bls.KeyG1SigG2], GG.G1, GG.G2]
	pubs    []*bls.PublicKey[bls.KeyG1SigG2]
	sigEncs [][]byte
}

var opInputs = sync.OnceValues(func() (*opData, error) {
	d := &opData{}
	pks := make([]GG.G1, suites.OpAggregateN)
	sigs := make([]GG.G2, suites.OpAggregateN)
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
		if err := pks[i].SetBytes(pkb); err != nil {
			return nil, err
		}
		sigb := bls.Sign(sk, suites.OpMessage)
		if err := sigs[i].SetBytes(sigb); err != nil {
			return nil, err
		}
		d.SKs, d.pubs, d.sigEncs = append(d.SKs, sk), append(d.pubs, pub), append(d.sigEncs, sigb)
		d.PKs.Each, d.Sigs.Each = append(d.PKs.Each, &pks[i]), append(d.Sigs.Each, &sigs[i])
	}
	d.PKs.Sum, _ = opSum(new(GG.G1), d.PKs.Each)()
	d.Sigs.Sum, _ = opSum(new(GG.G2), d.Sigs.Each)()
	return d, nil
})

// circlPoint is what circl's G1 and G2 share.
type circlPoint[A any] interface {
	*A
	Bytes() []byte
	BytesCompressed() []byte
	SetBytes(b []byte) error
	SetIdentity()
	Add(p, q *A)
}

// opSum is a maker of the sum of ps into out, with projective additions;
// circl has no other form.
func opSum[A any, PA circlPoint[A]](out *A, ps []*A) func() (*A, error) {
	return func() (*A, error) {
		PA(out).SetIdentity()
		for _, p := range ps {
			PA(out).Add(out, p)
		}
		return out, nil
	}
}

// circlGroupOf is what circl's G1 and G2 adapters differ in.
type circlGroupOf[A any] struct {
	typ  model.Type
	name string // G1 or G2
	// points selects the group's inputs.
	points func(*opData) suites.Points[A]
	// noBatch says why circl has no batch conversion to affine.
	noBatch string
}

// circlGroup is circl's adapter on one group, one code for G1 and G2. Its
// points have one form, projective: no Jacobian rows, no conversions.
func circlGroup[A any, PA circlPoint[A]](o circlGroupOf[A]) suites.Group[A, struct{}, []byte, []byte] {
	compressed := func(p *A) []byte { return PA(p).BytesCompressed() }
	uncompressed := func(p *A) []byte { return PA(p).Bytes() }
	setBytes := func(p *A, enc []byte) error { return PA(p).SetBytes(enc) }
	return suites.Group[A, struct{}, []byte, []byte]{
		Lib: lib, Type: o.typ, Repr: model.Projective,
		Points:     suites.PointsOf(opInputs, o.points),
		Compressed: compressed, Uncompressed: uncompressed, Deserialize: setBytes,
		Compress:  suites.Offer(fmt.Sprintf("%s.BytesCompressed: converts a copy to affine (one inversion) and returns a new slice", o.name), compressed),
		Serialize: suites.Offer(fmt.Sprintf("%s.Bytes: converts a copy to affine (one inversion) and returns a new slice", o.name), uncompressed),
		Decompress: suites.Impl[func(*A, []byte) func() error]{
			Lacks: suites.NotOffered(lib, "(*%s).SetBytes always checks the subgroup (see decompress-checked)", o.name)},
		DecompressChecked: suites.Offer(fmt.Sprintf("(*%s).SetBytes into a reused value: circl's only decode, on-curve and subgroup checks", o.name),
			func(p *A, enc []byte) func() error { return func() error { return setBytes(p, enc) } }),
		Aggregate: suites.Offer(fmt.Sprintf("(*%s).Add over %d projective points (complete formulas); circl has no affine form", o.name, suites.OpAggregateN),
			opSum[A, PA]),
		Convert: suites.Conversions[A, struct{}]{
			From: model.Projective,
			ToAffine: suites.Impl[func(*A, *struct{}) *A]{
				Lacks: suites.NotOffered(lib, "points are projective and toAffine is unexported (the encoders convert internally)")},
			ToAffineBatch: suites.Impl[func([]struct{}) []A]{Lacks: suites.NotOffered(lib, "%s", o.noBatch)},
		},
	}
}

// pkGroup and sigGroup are circl's adapters on G1 and G2.
func pkGroup() suites.Group[GG.G1, struct{}, []byte, []byte] {
	return circlGroup(circlGroupOf[GG.G1]{typ: model.PublicKey, name: "G1",
		points:  func(d *opData) suites.Points[GG.G1] { return d.PKs },
		noBatch: "no exported batch conversion (affinize is unexported)"})
}

func sigGroup() suites.Group[GG.G2, struct{}, []byte, []byte] {
	return circlGroup(circlGroupOf[GG.G2]{typ: model.Signature, name: "G2",
		points:  func(d *opData) suites.Points[GG.G2] { return d.Sigs },
		noBatch: "no exported batch conversion"})
}

// opScheme is circl's adapter for the signature operations, on the
// compressed encodings sign/bls works with.
func opScheme() suites.Scheme[*opData] {
	return suites.Scheme[*opData]{
		Lib: lib, Repr: model.Compressed, Inputs: opInputs,
		Sign: suites.Offer("bls.Sign: hash to G2, scalar multiplication, and compression (circl returns the signature as compressed bytes)",
			func(d *opData) suites.OpHarness {
				var out []byte
				return suites.OpHarness{
					Run:    func() error { out = bls.Sign(d.SKs[0], suites.OpMessage); return nil },
					Result: func() ([]byte, error) { return out, nil },
				}
			}),
		Verify: suites.Offer("bls.Verify: takes the signature compressed, so it includes decompression with the subgroup check, and validates the public key (subgroup check) on every call",
			func(d *opData, msg []byte) func() (bool, error) {
				return func() (bool, error) { return bls.Verify(d.pubs[0], msg, d.sigEncs[0]), nil }
			}),
		FastAggregateVerify: suites.Impl[func(*opData, []byte) func() (bool, error)]{
			Lacks: suites.NotOffered(lib, "sign/bls has the basic scheme only (no proof of possession, no FastAggregateVerify)")},
	}
}

// operations returns every circl operation.
func operations() []suites.Op {
	return slices.Concat(pkGroup().Ops(), sigGroup().Ops(), opScheme().Ops())
}
