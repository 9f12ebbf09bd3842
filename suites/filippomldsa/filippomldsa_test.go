package filippomldsa

import (
	"testing"

	"filippo.io/mldsa"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites/internal/pqkit"
	"github.com/memprof/memprof/suites/internal/pqtest"
	"github.com/memprof/memprof/suites/internal/suitetest"
	"github.com/memprof/memprof/vocab"
)

func TestMain(m *testing.M) { pqtest.Main(m) }

func TestCoverage(t *testing.T) {
	suitetest.CheckCoverage(t, Suite().Entries, pqtest.Keys(lib, pqkit.DSATypes.List(), pqkit.DSASets), pqtest.CheckDefaultN)
}

// TestMeasurements checks every available entry against its truth by
// construction: the seed, the public key and the signature are one array
// of the size FIPS 204 fixes (filippo.io/mldsa's constants); a parsed key
// is its struct, of one size for every set.
func TestMeasurements(t *testing.T) {
	var wants []pqtest.Want
	for _, p := range []struct {
		params  mldsa.Parameters
		sigSize int
	}{{mldsa.MLDSA44(), mldsa.MLDSA44SignatureSize}, {mldsa.MLDSA65(), mldsa.MLDSA65SignatureSize}, {mldsa.MLDSA87(), mldsa.MLDSA87SignatureSize}} {
		set := pqkit.Set(p.params.String())
		sk, err := mldsa.NewPrivateKey(p.params, pqkit.Seed(0, mldsa.PrivateKeySize))
		if err != nil {
			t.Fatal(err)
		}
		k := func(typ vocab.Type, r vocab.Repr) results.Key { return pqtest.Key(typ, lib, r, set) }
		wants = append(wants,
			pqtest.EncodingWant(t, k(vocab.MLDSAPrivateKey, vocab.Seed), mldsa.PrivateKeySize),
			pqtest.EncodingWant(t, k(vocab.MLDSAPublicKey, vocab.Packed), p.params.PublicKeySize()),
			pqtest.EncodingWant(t, k(vocab.MLDSASignature, vocab.Packed), p.sigSize),
			pqtest.ParsedWant(t, k(vocab.MLDSAPrivateKey, vocab.Parsed), sk),
			pqtest.ParsedWant(t, k(vocab.MLDSAPublicKey, vocab.Parsed), sk.PublicKey()))
	}
	pqtest.CheckMeasurements(t, Suite(), wants)
}

// TestStandardSizes checks the library's constants against FIPS 204.
func TestStandardSizes(t *testing.T) {
	if mldsa.MLDSA65PublicKeySize != 1952 || mldsa.MLDSA65SignatureSize != 3309 || mldsa.PrivateKeySize != 32 {
		t.Errorf("ML-DSA-65: public key %d B, signature %d B, seed %d B; FIPS 204 fixes 1952, 3309 and 32", mldsa.MLDSA65PublicKeySize, mldsa.MLDSA65SignatureSize, mldsa.PrivateKeySize)
	}
}

// TestLikeConstructor checks that the parsed keys, copies of a few, keep
// what the library's constructors keep when called per instance.
func TestLikeConstructor(t *testing.T) {
	s := Suite()
	pqtest.CheckLikeConstructor(t, s, pqtest.Key(vocab.MLDSAPrivateKey, lib, vocab.Parsed, "ML-DSA-65"),
		pqtest.Must(func(i int) (*mldsa.PrivateKey, error) {
			return mldsa.NewPrivateKey(mldsa.MLDSA65(), pqkit.Seed(i%pqkit.Distinct, mldsa.PrivateKeySize))
		}))
	sk, err := mldsa.NewPrivateKey(mldsa.MLDSA65(), pqkit.Seed(0, mldsa.PrivateKeySize))
	if err != nil {
		t.Fatal(err)
	}
	pb := sk.PublicKey().Bytes()
	pqtest.CheckLikeConstructor(t, s, pqtest.Key(vocab.MLDSAPublicKey, lib, vocab.Parsed, "ML-DSA-65"),
		pqtest.Must(func(int) (*mldsa.PublicKey, error) { return mldsa.NewPublicKey(mldsa.MLDSA65(), pb) }))
}

func TestOps(t *testing.T) { suitetest.CheckOps(t, Suite()) }

// TestAgree runs the ML-DSA check on filippo.io/mldsa alone: its known
// answers (suites/all's test runs it against circl).
func TestAgree(t *testing.T) {
	suitetest.CheckAgree(t, pqkit.CheckDSA, Agree())
}
