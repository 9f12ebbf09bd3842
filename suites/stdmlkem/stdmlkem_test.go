package stdmlkem

import (
	"crypto/mlkem"
	"testing"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites/internal/pqkit"
	"github.com/memprof/memprof/suites/internal/pqtest"
	"github.com/memprof/memprof/suites/internal/suitetest"
	"github.com/memprof/memprof/vocab"
)

func TestMain(m *testing.M) { pqtest.Main(m) }

func TestCoverage(t *testing.T) {
	suitetest.CheckCoverage(t, Suite().Entries, pqtest.Keys(lib, pqkit.KEMTypes, pqkit.KEMSets), pqtest.CheckDefaultN)
}

// TestMeasurements checks every available entry against its truth by
// construction: the seed, the encapsulation key and the ciphertext are one
// array of the size FIPS 203 fixes (crypto/mlkem's constants) in its size
// class; a parsed key is its exported struct and the expanded key it
// points to, each in its slot.
func TestMeasurements(t *testing.T) {
	k := func(typ vocab.Type, r vocab.Repr, set pqkit.Set) results.Key { return pqtest.Key(typ, lib, r, set) }
	dk768, err := mlkem.NewDecapsulationKey768(pqkit.Seed(0, mlkem.SeedSize))
	if err != nil {
		t.Fatal(err)
	}
	dk1024, err := mlkem.NewDecapsulationKey1024(pqkit.Seed(0, mlkem.SeedSize))
	if err != nil {
		t.Fatal(err)
	}
	var wants []pqtest.Want
	for _, s := range []struct {
		set    pqkit.Set
		ek, ct int
		dk, pk any
	}{
		{"ML-KEM-768", mlkem.EncapsulationKeySize768, mlkem.CiphertextSize768, dk768, dk768.EncapsulationKey()},
		{"ML-KEM-1024", mlkem.EncapsulationKeySize1024, mlkem.CiphertextSize1024, dk1024, dk1024.EncapsulationKey()},
	} {
		wants = append(wants,
			pqtest.EncodingWant(t, k(vocab.MLKEMDecapsulationKey, vocab.Seed, s.set), mlkem.SeedSize),
			pqtest.ParsedWant(t, k(vocab.MLKEMDecapsulationKey, vocab.Parsed, s.set), s.dk),
			pqtest.EncodingWant(t, k(vocab.MLKEMEncapsulationKey, vocab.Packed, s.set), s.ek),
			pqtest.ParsedWant(t, k(vocab.MLKEMEncapsulationKey, vocab.Parsed, s.set), s.pk),
			pqtest.EncodingWant(t, k(vocab.MLKEMCiphertext, vocab.Packed, s.set), s.ct))
	}
	pqtest.CheckMeasurements(t, Suite(), wants)
}

// TestLikeConstructor checks that the parsed keys, copies of a few the
// library made, keep what its constructors keep when called per instance.
func TestLikeConstructor(t *testing.T) {
	dk, err := mlkem.NewDecapsulationKey768(pqkit.Seed(1, mlkem.SeedSize))
	if err != nil {
		t.Fatal(err)
	}
	ek := dk.EncapsulationKey().Bytes()
	pqtest.CheckLikeConstructor(t, Suite(), pqtest.Key(vocab.MLKEMDecapsulationKey, lib, vocab.Parsed, "ML-KEM-768"),
		pqtest.Must(func(i int) (*mlkem.DecapsulationKey768, error) {
			return mlkem.NewDecapsulationKey768(pqkit.Seed(i%pqkit.Distinct, mlkem.SeedSize))
		}))
	pqtest.CheckLikeConstructor(t, Suite(), pqtest.Key(vocab.MLKEMEncapsulationKey, lib, vocab.Parsed, "ML-KEM-768"),
		pqtest.Must(func(int) (*mlkem.EncapsulationKey768, error) { return mlkem.NewEncapsulationKey768(ek) }))
}

func TestOps(t *testing.T) { suitetest.CheckOps(t, Suite()) }

// TestAgree runs the family's check on crypto/mlkem alone: its known
// answers (the cross-library part needs circl: suites/all's test).
func TestAgree(t *testing.T) {
	suitetest.CheckAgree(t, pqkit.CheckKEM, Agree())
}
