package circlpq

import (
	"testing"

	"github.com/cloudflare/circl/kem/mlkem/mlkem1024"
	"github.com/cloudflare/circl/kem/mlkem/mlkem512"
	"github.com/cloudflare/circl/kem/mlkem/mlkem768"
	"github.com/cloudflare/circl/sign/mldsa/mldsa44"
	"github.com/cloudflare/circl/sign/mldsa/mldsa65"
	"github.com/cloudflare/circl/sign/mldsa/mldsa87"
	"github.com/cloudflare/circl/sign/slhdsa"

	"unsafe"

	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/kzgtest"
	"github.com/memprof/memprof/suites/internal/pqkit"
	"github.com/memprof/memprof/suites/internal/pqtest"
	"github.com/memprof/memprof/suites/internal/suitetest"
	"github.com/memprof/memprof/vocab"
)

func TestMain(m *testing.M) { pqtest.Main(m) }

func TestCoverage(t *testing.T) {
	s := Suite()
	// The check counts every entry of lib: filter per family.
	dsa := s
	dsa.Entries = nil
	slh := s
	slh.Entries = nil
	kem := s
	kem.Entries = nil
	for _, e := range s.Entries {
		switch e.Family() {
		case vocab.MLKEM:
			kem.Entries = append(kem.Entries, e)
		case vocab.MLDSA:
			dsa.Entries = append(dsa.Entries, e)
		case vocab.SLHDSA:
			slh.Entries = append(slh.Entries, e)
		}
	}
	suitetest.CheckCoverage(t, kem.Entries, pqtest.Keys(lib, pqkit.KEMTypes, pqkit.KEMSets), pqtest.CheckDefaultN)
	suitetest.CheckCoverage(t, dsa.Entries, pqtest.Keys(lib, pqkit.DSATypes.List(), pqkit.DSASets), pqtest.CheckDefaultN)
	suitetest.CheckCoverage(t, slh.Entries, pqtest.Keys(lib, pqkit.SLHTypes.List(), pqkit.SLHSets), pqtest.CheckDefaultN)
}

// TestMeasurements checks every available entry against its truth by
// construction: encodings are one array of the size the standard fixes
// (circl's constants) in its size class; parsed ML-KEM and ML-DSA keys are
// their struct and the objects it points to; a parsed SLH-DSA key is its
// struct and the one buffer its slices share.
func TestMeasurements(t *testing.T) {
	var wants []pqtest.Want
	enc := func(typ vocab.Type, r vocab.Repr, set pqkit.Set, n int) {
		wants = append(wants, pqtest.EncodingWant(t, pqtest.Key(typ, lib, r, set), n))
	}
	parsed := func(typ vocab.Type, set pqkit.Set, v any) {
		wants = append(wants, pqtest.ParsedWant(t, pqtest.Key(typ, lib, vocab.Parsed, set), v))
	}
	kem := [3]vocab.Type{vocab.MLKEMDecapsulationKey, vocab.MLKEMEncapsulationKey, vocab.MLKEMCiphertext}
	dsa := [3]vocab.Type{vocab.MLDSAPrivateKey, vocab.MLDSAPublicKey, vocab.MLDSASignature}
	var seed [32]byte
	for _, c := range []struct {
		set pqkit.Set
		// types are the private key's, the public key's and the
		// ciphertext's or signature's; sizes their encodings', after the
		// seed's.
		types                        [3]vocab.Type
		seed, private, public, third int
		keys                         func() (public, private any)
	}{
		{"ML-KEM-512", kem, mlkem512.KeySeedSize, mlkem512.PrivateKeySize, mlkem512.PublicKeySize, mlkem512.CiphertextSize,
			func() (any, any) { return mlkem512.NewKeyFromSeed(pqkit.Seed(0, mlkem512.KeySeedSize)) }},
		{"ML-KEM-768", kem, mlkem768.KeySeedSize, mlkem768.PrivateKeySize, mlkem768.PublicKeySize, mlkem768.CiphertextSize,
			func() (any, any) { return mlkem768.NewKeyFromSeed(pqkit.Seed(0, mlkem768.KeySeedSize)) }},
		{"ML-KEM-1024", kem, mlkem1024.KeySeedSize, mlkem1024.PrivateKeySize, mlkem1024.PublicKeySize, mlkem1024.CiphertextSize,
			func() (any, any) { return mlkem1024.NewKeyFromSeed(pqkit.Seed(0, mlkem1024.KeySeedSize)) }},
		{"ML-DSA-44", dsa, mldsa44.SeedSize, mldsa44.PrivateKeySize, mldsa44.PublicKeySize, mldsa44.SignatureSize,
			func() (any, any) { return mldsa44.NewKeyFromSeed(&seed) }},
		{"ML-DSA-65", dsa, mldsa65.SeedSize, mldsa65.PrivateKeySize, mldsa65.PublicKeySize, mldsa65.SignatureSize,
			func() (any, any) { return mldsa65.NewKeyFromSeed(&seed) }},
		{"ML-DSA-87", dsa, mldsa87.SeedSize, mldsa87.PrivateKeySize, mldsa87.PublicKeySize, mldsa87.SignatureSize,
			func() (any, any) { return mldsa87.NewKeyFromSeed(&seed) }},
	} {
		private, public, third := c.types[0], c.types[1], c.types[2]
		pk, sk := c.keys()
		enc(private, vocab.Seed, c.set, c.seed)
		enc(private, vocab.Packed, c.set, c.private)
		enc(public, vocab.Packed, c.set, c.public)
		enc(third, vocab.Packed, c.set, c.third)
		parsed(private, c.set, sk)
		parsed(public, c.set, pk)
	}
	for _, id := range slhSets {
		set, sch := pqkit.Set(id.String()), id.Scheme()
		n := sch.PublicKeySize() / 2
		enc(vocab.SLHDSAPrivateKey, vocab.Seed, set, 3*n)
		enc(vocab.SLHDSAPrivateKey, vocab.Packed, set, sch.PrivateKeySize())
		enc(vocab.SLHDSAPublicKey, vocab.Packed, set, sch.PublicKeySize())
		enc(vocab.SLHDSASignature, vocab.Packed, set, sch.SignatureSize())
		// UnmarshalBinary copies the packed key into one new buffer that
		// the key's slices share.
		wants = append(wants,
			pqtest.Want{Key: pqtest.Key(vocab.SLHDSAPrivateKey, lib, vocab.Parsed, set), Objects: 2,
				Bytes: kzgtest.Slot(t, unsafe.Sizeof(slhdsa.PrivateKey{}), true) + kzgtest.Slot(t, uintptr(sch.PrivateKeySize()), false)},
			pqtest.Want{Key: pqtest.Key(vocab.SLHDSAPublicKey, lib, vocab.Parsed, set), Objects: 2,
				Bytes: kzgtest.Slot(t, unsafe.Sizeof(slhdsa.PublicKey{}), true) + kzgtest.Slot(t, uintptr(sch.PublicKeySize()), false)})
	}
	pqtest.CheckMeasurements(t, Suite(), wants)
}

// TestStandardSizes checks circl's constants against the sizes FIPS 203,
// 204 and 205 fix for the sets the issue names.
func TestStandardSizes(t *testing.T) {
	for _, c := range []struct {
		what      string
		got, want int
	}{
		{"ML-KEM-768 encapsulation key", mlkem768.PublicKeySize, 1184},
		{"ML-KEM-768 ciphertext", mlkem768.CiphertextSize, 1088},
		{"ML-DSA-65 public key", mldsa65.PublicKeySize, 1952},
		{"ML-DSA-65 signature", mldsa65.SignatureSize, 3309},
		{"SLH-DSA-SHA2-128s signature", slhdsa.SHA2_128s.Scheme().SignatureSize(), 7856},
	} {
		if c.got != c.want {
			t.Errorf("%s: circl says %d B, the standard %d B", c.what, c.got, c.want)
		}
	}
}

// TestLikeConstructor checks that the parsed keys built by pqkit.Clone keep
// what circl's constructors keep when called per instance.
func TestLikeConstructor(t *testing.T) {
	s := Suite()
	pqtest.CheckLikeConstructor(t, s, pqtest.Key(vocab.MLKEMDecapsulationKey, lib, vocab.Parsed, "ML-KEM-768"), func(i int) any {
		_, sk := mlkem768.NewKeyFromSeed(pqkit.Seed(i%pqkit.Distinct, mlkem768.KeySeedSize))
		return sk
	})
	pk768, _ := mlkem768.NewKeyFromSeed(pqkit.Seed(0, mlkem768.KeySeedSize))
	b := make([]byte, mlkem768.PublicKeySize)
	pk768.Pack(b)
	pqtest.CheckLikeConstructor(t, s, pqtest.Key(vocab.MLKEMEncapsulationKey, lib, vocab.Parsed, "ML-KEM-768"), func(int) any {
		p := new(mlkem768.PublicKey)
		if err := p.Unpack(b); err != nil {
			panic(err)
		}
		return p
	})
	var seed [32]byte
	pqtest.CheckLikeConstructor(t, s, pqtest.Key(vocab.MLDSAPrivateKey, lib, vocab.Parsed, "ML-DSA-65"), func(int) any {
		_, sk := mldsa65.NewKeyFromSeed(&seed)
		return sk
	})
	pk, _ := mldsa65.NewKeyFromSeed(&seed)
	pb := pk.Bytes()
	pqtest.CheckLikeConstructor(t, s, pqtest.Key(vocab.MLDSAPublicKey, lib, vocab.Parsed, "ML-DSA-65"), func(int) any {
		p := new(mldsa65.PublicKey)
		if err := p.UnmarshalBinary(pb); err != nil {
			panic(err)
		}
		return p
	})
}

// TestOps runs every operation on its known answer and its invalid input;
// the SLH-DSA small sets' key generation and signing (seconds a call) run
// with -pq.all only.
func TestOps(t *testing.T) {
	s := Suite()
	if !*pqtest.All {
		var keep []suites.Op
		for _, o := range s.Ops {
			if !(pqkit.SlowSet(pqkit.SetOf(o.Param)) && (o.Op == vocab.Sign || o.Op == vocab.KeyGen || o.Op == vocab.ToSeed || o.Op == vocab.Pack)) {
				keep = append(keep, o)
			}
		}
		s.Ops = keep
	}
	suitetest.CheckOps(t, s)
}
