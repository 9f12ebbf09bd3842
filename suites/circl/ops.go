package circl

import (
	"crypto/sha256"
	"fmt"
	"sync"

	GG "github.com/cloudflare/circl/ecc/bls12381"
	"github.com/cloudflare/circl/sign/bls"

	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
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
	typ  vocab.Type
	name string // G1 or G2
	// points selects the group's inputs.
	points func(*opData) suites.Points[A]
	// noBatch says why circl has no batch conversion to affine.
	noBatch string
	// verify and verifyEncoded check key 0's signature of msg with p, or
	// the encoding enc of a point, in place of key 0's public key (G1) or
	// signature (G2); what their paths call.
	verify        func(d *opData, p *A, msg []byte) (bool, error)
	verifyEncoded func(d *opData, enc, msg []byte) (bool, error)
	verifyCalls   []string
	// uses completes the group's Uses with what only one group has.
	uses func(*suites.Uses[A, struct{}, []byte])
}

// circlGroup is circl's adapter on one group, one code for G1 and G2. Its
// points have one form, projective: no Jacobian rows, no conversions.
func circlGroup[A any, PA circlPoint[A]](o circlGroupOf[A]) suites.Group[A, struct{}, []byte, []byte] {
	compressed := func(p *A) []byte { return PA(p).BytesCompressed() }
	uncompressed := func(p *A) []byte { return PA(p).Bytes() }
	setBytes := func(p *A, enc []byte) error { return PA(p).SetBytes(enc) }
	uses := suites.Uses[A, struct{}, []byte]{
		FromUncompressed: suites.Impl[func(*A, []byte) func() error]{
			Lacks: suites.NotOffered(lib, "(*%s).SetBytes always checks the subgroup (see decompress-checked)", o.name)},
		FromUncompressedChecked: suites.Offer(fmt.Sprintf("(*%s).SetBytes of the uncompressed encoding into a reused value: circl's only decode, on-curve and subgroup checks", o.name),
			func(p *A, enc []byte) func() error { return func() error { return setBytes(p, enc) } }).Via("SetBytes"),
		Verify: suites.Offer("bls.Verify, which takes the signature compressed (it decodes and subgroup-checks it, and validates the public key, on every call)",
			suites.VerifyWith(opInputs, o.verify)).Via(append([]string{"BytesCompressed"}, o.verifyCalls...)...),
		VerifyEncoded: suites.Offer("bls.Verify on the encoding itself (it decodes and subgroup-checks it, and validates the public key, on every call)",
			suites.VerifyWith(opInputs, o.verifyEncoded)).Via(o.verifyCalls...),
		FastAggregateVerify: suites.Impl[func(*A, []byte) (bool, error)]{
			Lacks: suites.NotOffered(lib, "sign/bls has the basic scheme only (no proof of possession, no FastAggregateVerify)")},
		SerializeJacobian: suites.Impl[func(*struct{}) func() []byte]{
			Lacks: suites.NotOffered(lib, "points are projective: no Jacobian form")},
	}
	if o.uses != nil {
		o.uses(&uses)
	}
	return suites.Group[A, struct{}, []byte, []byte]{
		Uses: uses,
		Lib:  lib, Type: o.typ, Repr: vocab.Projective,
		Points:     suites.PointsOf(opInputs, o.points),
		Compressed: compressed, Uncompressed: uncompressed, Deserialize: setBytes,
		Compress:  suites.Offer(fmt.Sprintf("%s.BytesCompressed: converts a copy to affine (one inversion) and returns a new slice", o.name), compressed).Via("BytesCompressed"),
		Serialize: suites.Offer(fmt.Sprintf("%s.Bytes: converts a copy to affine (one inversion) and returns a new slice", o.name), uncompressed).Via("Bytes"),
		Decompress: suites.Impl[func(*A, []byte) func() error]{
			Lacks: suites.NotOffered(lib, "(*%s).SetBytes always checks the subgroup (see decompress-checked)", o.name)},
		DecompressChecked: suites.Offer(fmt.Sprintf("(*%s).SetBytes into a reused value: circl's only decode, on-curve and subgroup checks", o.name),
			func(p *A, enc []byte) func() error { return func() error { return setBytes(p, enc) } }).Via("SetBytes"),
		Aggregate: suites.Offer(fmt.Sprintf("(*%s).Add over %d projective points (complete formulas); circl has no affine form", o.name, suites.OpAggregateN),
			opSum[A, PA]).Via(fmt.Sprintf("%d × (*%s).Add", suites.OpAggregateN, o.name)),
		Convert: suites.Conversions[A, struct{}]{
			From: vocab.Projective,
			ToAffine: suites.Impl[func(*A, *struct{}) *A]{
				Lacks: suites.NotOffered(lib, "points are projective and toAffine is unexported (the encoders convert internally)")},
			ToAffineBatch: suites.Impl[func([]struct{}) []A]{Lacks: suites.NotOffered(lib, "%s", o.noBatch)},
		},
	}
}

// pkGroup and sigGroup are circl's adapters on G1 and G2.
func pkGroup() suites.Group[GG.G1, struct{}, []byte, []byte] {
	return circlGroup(circlGroupOf[GG.G1]{typ: vocab.PublicKey, name: "G1",
		points:  func(d *opData) suites.Points[GG.G1] { return d.PKs },
		noBatch: "no exported batch conversion (affinize is unexported)",
		verify: func(d *opData, p *GG.G1, msg []byte) (bool, error) {
			return opVerifyKey(p.BytesCompressed(), msg, d.sigEncs[0])
		},
		verifyEncoded: func(d *opData, enc, msg []byte) (bool, error) { return opVerifyKey(enc, msg, d.sigEncs[0]) },
		verifyCalls:   []string{"(*PublicKey).UnmarshalBinary", "bls.Verify"},
	})
}

// opVerifyKey verifies sig of msg under the public key encoded in enc:
// sign/bls takes keys as its own PublicKey, decoded (and validated) from
// bytes.
func opVerifyKey(enc, msg, sig []byte) (bool, error) {
	var pub bls.PublicKey[bls.KeyG1SigG2]
	if err := pub.UnmarshalBinary(enc); err != nil {
		return false, err
	}
	return bls.Verify(&pub, msg, sig), nil
}

func sigGroup() suites.Group[GG.G2, struct{}, []byte, []byte] {
	return circlGroup(circlGroupOf[GG.G2]{typ: vocab.Signature, name: "G2",
		points:  func(d *opData) suites.Points[GG.G2] { return d.Sigs },
		noBatch: "no exported batch conversion",
		verify: func(d *opData, p *GG.G2, msg []byte) (bool, error) {
			return bls.Verify(d.pubs[0], msg, p.BytesCompressed()), nil
		},
		verifyEncoded: func(d *opData, enc, msg []byte) (bool, error) { return bls.Verify(d.pubs[0], msg, enc), nil },
		verifyCalls:   []string{"bls.Verify"},
		uses: func(u *suites.Uses[GG.G2, struct{}, []byte]) {
			u.Sign = suites.Offer("bls.Sign (hash to G2, scalar multiplication, compression), then (*G2).SetBytes of the result: circl returns signatures as bytes",
				suites.SignWith(opInputs, func(d *opData, p *GG.G2) error {
					return p.SetBytes(bls.Sign(d.SKs[0], suites.OpMessage))
				})).Via("bls.Sign", "SetBytes")
		},
	})
}

// opScheme is circl's adapter for the signature operations, on the
// compressed encodings sign/bls works with.
func opScheme() suites.Scheme[*opData] {
	return suites.Scheme[*opData]{
		Lib: lib, Repr: vocab.Compressed, Inputs: opInputs,
		Sign: suites.Offer("bls.Sign: hash to G2, scalar multiplication, and compression (circl returns the signature as compressed bytes)",
			func(d *opData) suites.OpHarness {
				var out []byte
				return suites.OpHarness{
					Run:    func() error { out = bls.Sign(d.SKs[0], suites.OpMessage); return nil },
					Result: func() ([]byte, error) { return out, nil },
				}
			}).Via("bls.Sign"),
		Verify: suites.Offer("bls.Verify: takes the signature compressed, so it includes decompression with the subgroup check, and validates the public key (subgroup check) on every call",
			func(d *opData, msg []byte) func() (bool, error) {
				return func() (bool, error) { return bls.Verify(d.pubs[0], msg, d.sigEncs[0]), nil }
			}).Via("bls.Verify"),
		FastAggregateVerify: suites.Impl[func(*opData, []byte) func() (bool, error)]{
			Lacks: suites.NotOffered(lib, "sign/bls has the basic scheme only (no proof of possession, no FastAggregateVerify)")},
	}
}

// operations returns every circl operation.
func operations() []suites.Op {
	return suites.OpsWithPaths(pkGroup(), sigGroup(), opScheme())
}
