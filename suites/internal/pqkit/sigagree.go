package pqkit

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/memprof/memprof/fixtures/pq"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// DSAVectors are ML-DSA's known answers: circl's ACVP key generation,
// Wycheproof's deterministic signatures from a seed and verifications.
var DSAVectors = SigVectors{
	KeyGen: func(s Set) ([]byte, []byte, []byte, error) {
		v, err := pick(pq.DSA, func(v *pq.Vectors) []pq.DSAKeyGen { return v.DSAKeyGen }, dsaKeyGenSet, s, nil, "keyGen")
		return v.Seed, v.PK, v.SK, err
	},
	Sign: func(s Set) (seed, sk, msg, ctx, sig []byte, err error) {
		v, err := pick(pq.DSA, func(v *pq.Vectors) []pq.DSASign { return v.DSASign }, dsaSignSet, s, func(v pq.DSASign) bool { return v.Valid }, "signature")
		return v.Seed, nil, v.Msg, v.Ctx, v.Sig, err
	},
	Verify: func(s Set) (pk, msg, ctx, sig []byte, err error) {
		v, err := pick(pq.DSA, func(v *pq.Vectors) []pq.DSAVerify { return v.DSAVerify }, dsaVerifySet, s, func(v pq.DSAVerify) bool { return v.Valid }, "verification")
		return v.PK, v.Msg, v.Ctx, v.Sig, err
	},
}

// SLHVectors are SLH-DSA's known answers, circl's ACVP files: the seed of
// a signature's key is the first three n-byte parts of its packed private
// key (SK.seed‖SK.prf‖PK.seed).
var SLHVectors = SigVectors{
	KeyGen: func(s Set) ([]byte, []byte, []byte, error) {
		v, err := pick(pq.SLH, func(v *pq.Vectors) []pq.SLHKeyGen { return v.SLHKeyGen }, slhKeyGenSet, s, nil, "keyGen")
		return v.Seed(), v.PK, v.SK, err
	},
	Sign: func(s Set) (seed, sk, msg, ctx, sig []byte, err error) {
		v, err := pick(pq.SLH, func(v *pq.Vectors) []pq.SLHSign { return v.SLHSign }, slhSignSet, s, func(v pq.SLHSign) bool { return v.Deterministic }, "deterministic signature")
		return slhSeed(v.SK), v.SK, v.Message, v.Context, v.Signature, err
	},
	Verify: func(s Set) (pk, msg, ctx, sig []byte, err error) {
		v, err := pick(pq.SLH, func(v *pq.Vectors) []pq.SLHVerify { return v.SLHVerify }, slhVerifySet, s, func(v pq.SLHVerify) bool { return v.TestPassed }, "valid verification")
		return v.PK, v.Message, v.Context, v.Signature, err
	},
}

// SlowSet reports whether set is an SLH-DSA set of small signatures (the
// s sets), whose signing takes about a second or more.
func SlowSet(set Set) bool {
	return strings.HasPrefix(string(set), "SLH-DSA-") && strings.HasSuffix(string(set), "s")
}

// SLHValues are the values of the SLH-DSA cases: the keys of the set's
// ACVP key generations and the signatures of its signing and verification
// vectors (signing takes seconds in the small sets).
func SLHValues(s Set) (Values, error) {
	v, err := pq.SLH()
	if err != nil {
		return Values{}, err
	}
	var out Values
	for _, k := range OfSet(v.SLHKeyGen, slhKeyGenSet, s, nil, 0) {
		out.Seeds, out.PackedSKs, out.PackedPKs = append(out.Seeds, k.Seed()), append(out.PackedSKs, k.SK), append(out.PackedPKs, k.PK)
	}
	for _, g := range OfSet(v.SLHSign, slhSignSet, s, nil, 0) {
		out.Sigs = append(out.Sigs, g.Signature)
	}
	if len(out.Seeds) == 0 || len(out.Sigs) == 0 {
		return Values{}, fmt.Errorf("%s has no SLH-DSA key generation or signature of %s", pq.Dir, s)
	}
	return out, nil
}

// slhSeed is the key-generation seed of a packed SLH-DSA private key of
// 4n bytes: its first 3n.
func slhSeed(sk []byte) []byte { return bytes.Clone(sk[:len(sk)/4*3]) }

// SigLib is one library's part in the ML-DSA or SLH-DSA agreement check:
// its sets.
type SigLib = Lib[SigAgree]

// CheckDSA is the ML-DSA agreement check (a suites.FamilyCheck's Run).
// For every set, each library that has it must give the known answers of
// fixtures/pq (ACVP key generation; Wycheproof's deterministic signatures
// from a seed, and its verifications, the invalid ones refused); then
// every two libraries that share the set must make the same keys from the
// same seeds byte for byte, the same deterministic signature of the same
// message and context, verify each other's, and refuse a signature with
// one bit flipped and a public key one byte short.
func CheckDSA(libs []suites.FamilyAgreeLib) (*suites.AgreeReport, error) {
	return checkFamily(vocab.MLDSA, libs, pq.DSA, DSASets, dsaKnownAnswers,
		func(set Set, names []vocab.Lib, have []SigAgree) (int, error) { return crossSig(set, names, have, 32) })
}

// crossSig checks that the libraries of a set agree with one another on
// seeds of seedSize bytes.
func crossSig(set Set, names []vocab.Lib, have []SigAgree, seedSize int) (int, error) {
	n := 0
	if len(have) == 0 {
		return 0, nil
	}
	for i := range Distinct / 8 {
		seed, msg := Seed(i, seedSize), Message(i)
		c := fmt.Sprintf("%s seed %d", set, i)
		var pks, sigs [][]byte
		for j, a := range have {
			n++
			pk, _, back, err := a.FromSeed(seed)
			if err != nil {
				return n, disagree(c, "key generation", names[j], "the seed", nil, nil, err.Error())
			}
			if back != nil && !bytes.Equal(back, seed) {
				return n, disagree(c, "seed given back", names[j], "the seed", back, seed, "")
			}
			if j > 0 && !bytes.Equal(pk, pks[0]) {
				return n, disagree(c, "public key", names[j], string(names[0]), pk, pks[0], "")
			}
			sig, err := a.Sign(seed, msg, Context)
			if err != nil {
				return n, disagree(c, "deterministic signature", names[j], "the message", nil, nil, err.Error())
			}
			if j > 0 && !bytes.Equal(sig, sigs[0]) {
				return n, disagree(c, "deterministic signature", names[j], string(names[0]), sig, sigs[0], "")
			}
			pks, sigs = append(pks, pk), append(sigs, sig)
		}
		for j, a := range have {
			for k := range have {
				n += 3
				if ok, err := a.Verify(pks[k], msg, Context, sigs[k]); err != nil || !ok {
					return n, disagree(c, "verification of "+string(names[k])+"'s signature", names[j], string(names[k]), nil, nil, fmt.Sprintf("ok %v, error %v", ok, err))
				}
				if ok, err := a.Verify(pks[k], msg, Context, flip(sigs[k], i)); err == nil && ok {
					return n, disagree(c, "a signature with one bit flipped", names[j], "the standard (rejected)", nil, nil, "accepted")
				}
				if ok, err := a.Verify(short(pks[k]), msg, Context, sigs[k]); err == nil && ok {
					return n, disagree(c, "a public key one byte short", names[j], "the standard (rejected)", nil, nil, "accepted")
				}
			}
		}
	}
	return n, nil
}

func dsaKnownAnswers(v *pq.Vectors, set Set, lib vocab.Lib, a SigAgree) (int, error) {
	n := 0
	for _, t := range limited(OfSet(v.DSAKeyGen, dsaKeyGenSet, set, nil, 0)) {
		n++
		pk, packed, back, err := a.FromSeed(t.Seed)
		switch {
		case err != nil:
			return n, disagree(t.Source.String(), "key generation", lib, pq.Dir, nil, nil, err.Error())
		case !bytes.Equal(pk, t.PK):
			return n, disagree(t.Source.String(), "public key", lib, pq.Dir, pk, t.PK, "")
		case packed != nil && !bytes.Equal(packed, t.SK):
			return n, disagree(t.Source.String(), "packed private key", lib, pq.Dir, packed, t.SK, "")
		case back != nil && !bytes.Equal(back, t.Seed):
			return n, disagree(t.Source.String(), "seed given back", lib, pq.Dir, back, t.Seed, "")
		}
	}
	valid := func(t pq.DSASign) bool { return t.Valid }
	for _, t := range byKind(v.DSASign, dsaSignSet, set, valid, limited) {
		n++
		sig, err := a.Sign(t.Seed, t.Msg, t.Ctx)
		switch {
		case t.Valid && (err != nil || !bytes.Equal(sig, t.Sig)):
			return n, disagree(t.Source.String(), "deterministic signature", lib, pq.Dir, sig, t.Sig, errText(err))
		case !t.Valid && err == nil:
			return n, disagree(t.Source.String(), "invalid signing input "+fmt.Sprint(t.Flags), lib, pq.Dir, sig, nil, "signed")
		}
	}
	vvalid := func(t pq.DSAVerify) bool { return t.Valid }
	for _, t := range byKind(v.DSAVerify, dsaVerifySet, set, vvalid, limited) {
		n++
		ok, err := a.Verify(t.PK, t.Msg, t.Ctx, t.Sig)
		if got := ok && err == nil; got != t.Valid {
			return n, disagree(t.Source.String(), "verification "+fmt.Sprint(t.Flags), lib, pq.Dir, nil, nil, fmt.Sprintf("got valid %v (error %v), want %v", got, err, t.Valid))
		}
	}
	return n, nil
}

// CheckSLH is the SLH-DSA agreement check: one library here, so known
// answers only (circl's ACVP key generation, deterministic and randomized
// signatures of the external interface with pure messages, and
// verifications, the failing ones refused).
func CheckSLH(libs []suites.FamilyAgreeLib) (*suites.AgreeReport, error) {
	return checkFamily(vocab.SLHDSA, libs, pq.SLH, SLHSets, slhKnownAnswers, nil)
}

// slhKnownAnswers checks one library at one set against fixtures/pq and
// returns the cases run.
func slhKnownAnswers(v *pq.Vectors, set Set, lib vocab.Lib, a SigAgree) (int, error) {
	cases := 0
	for _, t := range limited(OfSet(v.SLHKeyGen, slhKeyGenSet, set, nil, 0)) {
		cases++
		pk, packed, _, err := a.FromSeed(t.Seed())
		if err != nil || !bytes.Equal(pk, t.PK) || (packed != nil && !bytes.Equal(packed, t.SK)) {
			return cases, disagree(t.Source.String(), "key generation", lib, pq.Dir, append(pk, packed...), append(bytes.Clone(t.PK), t.SK...), errText(err))
		}
	}
	if a.SignPacked != nil {
		det := func(t pq.SLHSign) bool { return t.Deterministic }
		// The small (s) sets sign in seconds a signature: their
		// signatures are checked only when every vector is asked
		// for (.ci/run); their keys and verifications always.
		limit := func(vs []pq.SLHSign) []pq.SLHSign {
			if VectorsPerKind > 0 && SlowSet(set) {
				return nil
			}
			return limited(vs)
		}
		for _, t := range byKind(v.SLHSign, slhSignSet, set, det, limit) {
			cases++
			var random []byte
			if !t.Deterministic {
				random = t.AdditionalRandomness
			}
			sig, err := a.SignPacked(t.SK, t.Message, t.Context, random)
			if err != nil || !bytes.Equal(sig, t.Signature) {
				return cases, disagree(t.Source.String(), "signature", lib, pq.Dir, sig, t.Signature, errText(err))
			}
		}
	}
	pass := func(t pq.SLHVerify) bool { return t.TestPassed }
	for _, t := range byKind(v.SLHVerify, slhVerifySet, set, pass, limited) {
		cases++
		ok, err := a.Verify(t.PK, t.Message, t.Context, t.Signature)
		if got := ok && err == nil; got != t.TestPassed {
			return cases, disagree(t.Source.String(), "verification", lib, pq.Dir, nil, nil, fmt.Sprintf("got valid %v (error %v), want %v", got, err, t.TestPassed))
		}
	}
	return cases, nil
}
