package pqkit

import (
	"fmt"

	"github.com/memprof/memprof/fixtures/pq"
)

// first returns the first vector of list that is of set and for which
// keep holds (nil keep keeps every one).
func first[V any](list []V, setOf func(V) string, set Set, keep func(V) bool, what string) (V, error) {
	for _, v := range list {
		if setOf(v) == string(set) && (keep == nil || keep(v)) {
			return v, nil
		}
	}
	var zero V
	return zero, fmt.Errorf("%s has no %s vector of %s", pq.Dir, what, set)
}

// OfSet returns the vectors of list that are of set and for which keep
// holds (nil keep keeps every one), at most limit of them (0: all).
func OfSet[V any](list []V, setOf func(V) string, set Set, keep func(V) bool, limit int) []V {
	var out []V
	for _, v := range list {
		if setOf(v) == string(set) && (keep == nil || keep(v)) {
			out = append(out, v)
			if limit > 0 && len(out) == limit {
				break
			}
		}
	}
	return out
}

// pick returns the first vector of set (for which keep holds) of the
// list that of selects of the family's vectors load returns.
func pick[V any](load func() (*pq.Vectors, error), of func(*pq.Vectors) []V, setOf func(V) string, set Set, keep func(V) bool, what string) (V, error) {
	v, err := load()
	if err != nil {
		var zero V
		return zero, err
	}
	return first(of(v), setOf, set, keep, what)
}

func kemKeyGenSet(v pq.KEMKeyGen) string { return v.Set }
func kemEncapsSet(v pq.KEMEncaps) string { return v.Set }
func kemDecapsSet(v pq.KEMDecaps) string { return v.Set }
func kemSeedSet(v pq.KEMSeed) string     { return v.Set }
func dsaKeyGenSet(v pq.DSAKeyGen) string { return v.Set }
func dsaSignSet(v pq.DSASign) string     { return v.Set }
func dsaVerifySet(v pq.DSAVerify) string { return v.Set }
func slhKeyGenSet(v pq.SLHKeyGen) string { return v.Set }
func slhSignSet(v pq.SLHSign) string     { return v.Set }
func slhVerifySet(v pq.SLHVerify) string { return v.Set }

// validSeed keeps the Wycheproof ML-KEM tests a decapsulation must
// succeed on.
func validSeed(v pq.KEMSeed) bool { return v.Result == "valid" }

// DecapsVector returns the first valid Wycheproof ML-KEM test of set: a
// seed, a ciphertext and its shared key.
func DecapsVector(set Set) (pq.KEMSeed, error) {
	return pick(pq.KEM, func(v *pq.Vectors) []pq.KEMSeed { return v.KEMSeed }, kemSeedSet, set, validSeed, "decapsulation")
}

// EncapsVector returns the first ACVP ML-KEM encapsulation vector of set.
func EncapsVector(set Set) (pq.KEMEncaps, error) {
	return pick(pq.KEM, func(v *pq.Vectors) []pq.KEMEncaps { return v.KEMEncaps }, kemEncapsSet, set, nil, "encapsulation")
}
