package pqkit

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/memprof/memprof/fixtures/pq"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// VectorsPerKind is how many known answers of each kind per set the
// agreement checks run (memprof verify, the checks before timing, go
// test); 0 runs every one (.ci/run's step, through the suites' -pq.all
// flag). The SLH-DSA signatures of the small (s) sets take seconds each.
var VectorsPerKind = 2

// KEMLib is one library's part in the ML-KEM agreement check: its sets.
type KEMLib = Lib[KEMAgree]

// Lib is one library's part in a post-quantum agreement check: its name
// and its part at each set it has.
type Lib[A interface{ at() Set }] struct {
	Lib  vocab.Lib
	Sets []A
}

// setsOf returns, for set, the libraries of impls that have it and their
// parts at it.
func setsOf[A interface{ at() Set }](impls []Lib[A], set Set) (libs []vocab.Lib, as []A) {
	for _, l := range impls {
		if i := slices.IndexFunc(l.Sets, func(a A) bool { return a.at() == set }); i >= 0 {
			libs, as = append(libs, l.Lib), append(as, l.Sets[i])
		}
	}
	return libs, as
}

// disagree returns the disagreement of lib on a case.
func disagree(c, check string, lib vocab.Lib, against string, got, want []byte, detail string) error {
	return &suites.Disagreement{Case: c, Check: check, Lib: lib, Against: against, Got: got, Want: want, Detail: detail}
}

// libsOf returns the family's libraries of type L that can take part,
// and the report started with the others' reasons.
func libsOf[L any](family vocab.Family, libs []suites.FamilyAgreeLib) (*suites.AgreeReport, []L, error) {
	rep := &suites.AgreeReport{Unavailable: map[vocab.Lib]string{}}
	var out []L
	for _, l := range libs {
		if !l.Unavailable.IsZero() {
			rep.Unavailable[l.Lib] = l.Unavailable.Reason
			continue
		}
		impl, ok := l.Impl.(L)
		if !ok {
			return rep, nil, fmt.Errorf("%s agreement: library %s gives a %T, want a %T", family, l.Lib, l.Impl, *new(L))
		}
		out = append(out, impl)
		rep.Libs = append(rep.Libs, l.Lib)
	}
	slices.Sort(rep.Libs)
	if len(out) == 0 {
		return rep, nil, fmt.Errorf("checking %s agreement: no library available", family)
	}
	return rep, out, nil
}

// checkFamily is the frame of the ML-KEM, ML-DSA and SLH-DSA agreement
// checks: at each set, every library that has it against the family's
// known answers, then, where cross is not nil, the libraries against one
// another. knownAnswers and cross return the cases they ran.
func checkFamily[A interface{ at() Set }](family vocab.Family, libs []suites.FamilyAgreeLib, vectors func() (*pq.Vectors, error), sets []Set,
	knownAnswers func(v *pq.Vectors, set Set, lib vocab.Lib, a A) (int, error),
	cross func(set Set, names []vocab.Lib, have []A) (int, error)) (*suites.AgreeReport, error) {
	rep, impls, err := libsOf[Lib[A]](family, libs)
	if err != nil {
		return rep, err
	}
	v, err := vectors()
	if err != nil {
		return rep, err
	}
	for _, set := range sets {
		names, have := setsOf(impls, set)
		for j, a := range have {
			n, err := knownAnswers(v, set, names[j], a)
			rep.Cases += n
			if err != nil {
				return rep, err
			}
		}
		if cross == nil {
			continue
		}
		n, err := cross(set, names, have)
		rep.Cases += n
		if err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// byKind returns the vectors of list at set, those first keeps
// (the valid ones, say) before the others, each kind cut by limit.
func byKind[V any](list []V, setOf func(V) string, set Set, first func(V) bool, limit func([]V) []V) []V {
	others := func(v V) bool { return !first(v) }
	return slices.Concat(limit(OfSet(list, setOf, set, first, 0)), limit(OfSet(list, setOf, set, others, 0)))
}

// limited returns the first VectorsPerKind of vs (all when it is 0).
func limited[V any](vs []V) []V {
	if VectorsPerKind > 0 && len(vs) > VectorsPerKind {
		return vs[:VectorsPerKind]
	}
	return vs
}

// What each post-quantum family's agreement check compares, in one line
// (suites.FamilyCheck.Checks).
const (
	KEMChecks = "ML-KEM keys from the same seeds byte for byte, each decapsulates the others' ciphertexts, the same implicit rejection; known answers"
	DSAChecks = "ML-DSA keys and deterministic signatures byte for byte; each verifies the others'; known answers"
	SLHChecks = "SLH-DSA keys, signatures and verifications against known answers"
)

// Help is the paragraph of the three post-quantum checks in verify's help
// (suites.FamilyCheck.Help), carried by ML-KEM's, the first of them.
const Help = `Post-quantum (fixtures/pq: circl's ACVP files and Wycheproof's mlkem_* and
mldsa_* files): for every parameter set, each library must give the known
keys from the vectors' seeds, encapsulations, decapsulations and deterministic
signatures byte for byte and refuse the invalid inputs; crypto/mlkem and circl
must make the same ML-KEM keys from the same seeds, decapsulate each other's
ciphertexts to the same key, a modified ciphertext to the same
implicit-rejection key, and refuse one of the wrong length; circl and
filippo.io/mldsa must make the same ML-DSA keys and deterministic signatures,
verify each other's and refuse a flipped bit and a short public key. SLH-DSA
(circl alone) is checked against its known answers; the signatures of its
small (s) sets take seconds each and are checked in .ci/run only.`

// CheckKEM is the ML-KEM agreement check (a suites.FamilyCheck's Run).
// For every set, each library that has it must give the known answers of
// fixtures/pq (ACVP key generation, encapsulation and decapsulation of a
// packed key; Wycheproof's decapsulation from a seed, its invalid tests
// refused); then every two libraries that share the set must make the same
// keys from the same seeds byte for byte, decapsulate each other's
// ciphertexts to the same shared key, decapsulate a ciphertext with one
// bit flipped to the same implicit-rejection key (no error), and refuse a
// ciphertext one byte short.
func CheckKEM(libs []suites.FamilyAgreeLib) (*suites.AgreeReport, error) {
	return checkFamily(vocab.MLKEM, libs, pq.KEM, KEMSets, kemKnownAnswers, crossKEM)
}

// crossKEM checks that the libraries of a set agree with one another and
// returns the cases run.
func crossKEM(set Set, names []vocab.Lib, have []KEMAgree) (int, error) {
	if len(have) == 0 {
		return 0, nil
	}
	cases := 0
	for i := range Distinct / 4 {
		seed, m := Seed(i, 64), Seed(100+i, 32)
		c := fmt.Sprintf("%s seed %d", set, i)
		var eks, packs [][]byte
		for j, h := range have {
			ek, packed, back, err := h.FromSeed(seed)
			if err != nil {
				return cases, disagree(c, "key generation", names[j], "the seed", nil, nil, err.Error())
			}
			if back != nil && !bytes.Equal(back, seed) {
				return cases, disagree(c, "seed given back", names[j], "the seed", back, seed, "")
			}
			eks, packs = append(eks, ek), append(packs, packed)
		}
		for j := 1; j < len(have); j++ {
			if !bytes.Equal(eks[j], eks[0]) {
				return cases, disagree(c, "encapsulation key", names[j], string(names[0]), eks[j], eks[0], "")
			}
			if packs[j] != nil && packs[0] != nil && !bytes.Equal(packs[j], packs[0]) {
				return cases, disagree(c, "packed decapsulation key", names[j], string(names[0]), packs[j], packs[0], "")
			}
		}
		for e, enc := range have {
			ct, k, err := enc.Encapsulate(eks[0], m)
			if err != nil {
				return cases, disagree(c, "encapsulation", names[e], "the key", nil, nil, err.Error())
			}
			for d, dec := range have {
				cases++
				got, err := dec.Decapsulate(seed, ct)
				if err != nil || !bytes.Equal(got, k) {
					return cases, disagree(c, "shared key of "+string(names[e])+"'s ciphertext", names[d], string(names[e]), got, k, errText(err))
				}
			}
		}
		ct, _, err := have[0].Encapsulate(eks[0], m)
		if err != nil {
			return cases, err
		}
		bad := flip(ct, i)
		var rejected []byte
		for j, dec := range have {
			cases += 2
			got, err := dec.Decapsulate(seed, bad)
			if err != nil {
				return cases, disagree(c, "implicit rejection of a modified ciphertext", names[j], "FIPS 203 (a pseudo-random key, no error)", nil, nil, err.Error())
			}
			if j == 0 {
				rejected = got
			} else if !bytes.Equal(got, rejected) {
				return cases, disagree(c, "implicit-rejection key", names[j], string(names[0]), got, rejected, "")
			}
			if _, err := dec.Decapsulate(seed, short(ct)); err == nil {
				return cases, disagree(c, "ciphertext one byte short", names[j], "FIPS 203 (an error)", nil, nil, "accepted")
			}
		}
	}
	return cases, nil
}

// kemKnownAnswers checks one library at one set against fixtures/pq and
// returns the cases run.
func kemKnownAnswers(v *pq.Vectors, set Set, lib vocab.Lib, a KEMAgree) (int, error) {
	n := 0
	for _, t := range limited(OfSet(v.KEMKeyGen, kemKeyGenSet, set, nil, 0)) {
		n++
		ek, packed, back, err := a.FromSeed(t.Seed())
		switch {
		case err != nil:
			return n, disagree(t.Source.String(), "key generation", lib, pq.Dir, nil, nil, err.Error())
		case !bytes.Equal(ek, t.EK):
			return n, disagree(t.Source.String(), "encapsulation key", lib, pq.Dir, ek, t.EK, "")
		case packed != nil && !bytes.Equal(packed, t.DK):
			return n, disagree(t.Source.String(), "packed decapsulation key", lib, pq.Dir, packed, t.DK, "")
		case back != nil && !bytes.Equal(back, t.Seed()):
			return n, disagree(t.Source.String(), "seed given back", lib, pq.Dir, back, t.Seed(), "")
		}
	}
	for _, t := range limited(OfSet(v.KEMEncaps, kemEncapsSet, set, nil, 0)) {
		n++
		c, k, err := a.Encapsulate(t.EK, t.M)
		if err != nil || !bytes.Equal(c, t.C) || !bytes.Equal(k, t.K) {
			return n, disagree(t.Source.String(), "encapsulation", lib, pq.Dir, append(c, k...), append(bytes.Clone(t.C), t.K...), errText(err))
		}
	}
	if a.DecapsulatePacked != nil {
		for _, t := range limited(OfSet(v.KEMDecaps, kemDecapsSet, set, nil, 0)) {
			n++
			k, err := a.DecapsulatePacked(t.DK, t.C)
			if err != nil || !bytes.Equal(k, t.K) {
				return n, disagree(t.Source.String(), "decapsulation with the packed key", lib, pq.Dir, k, t.K, errText(err))
			}
		}
	}
	valid := func(t pq.KEMSeed) bool { return t.Result == "valid" }
	for _, t := range byKind(v.KEMSeed, kemSeedSet, set, valid, limited) {
		n++
		k, err := a.Decapsulate(t.Seed, t.C)
		switch {
		case t.Result == "valid" && (err != nil || !bytes.Equal(k, t.K)):
			return n, disagree(t.Source.String(), "decapsulation from the seed", lib, pq.Dir, k, t.K, errText(err))
		case t.Result != "valid" && err == nil:
			return n, disagree(t.Source.String(), "invalid seed or ciphertext", lib, pq.Dir, k, nil, fmt.Sprintf("accepted a %d-byte seed and a %d-byte ciphertext", len(t.Seed), len(t.C)))
		}
	}
	return n, nil
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
