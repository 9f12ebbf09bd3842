//go:build cgo

package blst

import (
	"sync"

	blst "github.com/supranational/blst/bindings/go"

	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites/internal/suitekit"
)

// The blst suite's inputs: Distinct real values of each kind, computed
// once per process on first use (cases call them from Prepare, with
// profiling off). Throughput operations may use them too. The keys are
// those of suitekit.IKM, so gnark and circl compute the same values.

// Distinct is the number of distinct values of each kind.
const Distinct = suitekit.Distinct

// DSTMinPk and DSTMinSig are the signature DSTs of the min-pk (Ethereum)
// and min-sig schemes.
var (
	DSTMinPk  = suitekit.DSTMinPk
	DSTMinSig = suitekit.DSTMinSig
)

// SecretKeys returns the keys blst.KeyGen(suitekit.IKM(i)).
var SecretKeys = sync.OnceValue(func() []*blst.SecretKey {
	out := make([]*blst.SecretKey, Distinct)
	for i := range out {
		out[i] = blst.KeyGen(suitekit.IKM(i))
	}
	return out
})

// SecretKeyBytes returns the 32-byte big-endian encodings of SecretKeys.
var SecretKeyBytes = sync.OnceValue(func() [][]byte {
	out := make([][]byte, Distinct)
	for i, sk := range SecretKeys() {
		out[i] = sk.Serialize()
	}
	return out
})

// PublicKeysG1 returns the min-pk public keys sk·g1.
var PublicKeysG1 = sync.OnceValue(func() []blst.P1Affine {
	out := make([]blst.P1Affine, Distinct)
	for i, sk := range SecretKeys() {
		out[i].From(sk)
	}
	return out
})

// PublicKeysG2 returns the min-sig public keys sk·g2.
var PublicKeysG2 = sync.OnceValue(func() []blst.P2Affine {
	out := make([]blst.P2Affine, Distinct)
	for i, sk := range SecretKeys() {
		out[i].From(sk)
	}
	return out
})

// SignaturesG2 returns the min-pk signatures of suitekit.Message(i) by
// key i (DSTMinPk).
var SignaturesG2 = sync.OnceValue(func() []blst.P2Affine {
	out := make([]blst.P2Affine, Distinct)
	for i, sk := range SecretKeys() {
		out[i].Sign(sk, suitekit.Message(i), DSTMinPk)
	}
	return out
})

// SignaturesG1 returns the min-sig signatures of suitekit.Message(i) by
// key i (DSTMinSig).
var SignaturesG1 = sync.OnceValue(func() []blst.P1Affine {
	out := make([]blst.P1Affine, Distinct)
	for i, sk := range SecretKeys() {
		out[i].Sign(sk, suitekit.Message(i), DSTMinSig)
	}
	return out
})

// HashedG1 returns the raw G1 elements: blst.HashToG1(Message(i),
// DSTMinSig), in Jacobian coordinates as blst returns them.
var HashedG1 = sync.OnceValue(func() []blst.P1 {
	out := make([]blst.P1, Distinct)
	for i := range out {
		out[i] = *blst.HashToG1(suitekit.Message(i), DSTMinSig)
	}
	return out
})

// HashedG2 returns the raw G2 elements: blst.HashToG2(Message(i),
// DSTMinPk), in Jacobian coordinates.
var HashedG2 = sync.OnceValue(func() []blst.P2 {
	out := make([]blst.P2, Distinct)
	for i := range out {
		out[i] = *blst.HashToG2(suitekit.Message(i), DSTMinPk)
	}
	return out
})

// HashedG1Affine and HashedG2Affine are HashedG1 and HashedG2 in affine
// coordinates.
var (
	HashedG1Affine = sync.OnceValue(func() []blst.P1Affine {
		out := make([]blst.P1Affine, Distinct)
		for i, p := range HashedG1() {
			out[i] = *p.ToAffine()
		}
		return out
	})
	HashedG2Affine = sync.OnceValue(func() []blst.P2Affine {
		out := make([]blst.P2Affine, Distinct)
		for i, p := range HashedG2() {
			out[i] = *p.ToAffine()
		}
		return out
	})
)

// g1Values returns the affine G1 values of a point type under a scheme:
// min-pk public keys, min-sig signatures or the raw hashed points.
func g1Values(typ model.Type) func() []blst.P1Affine {
	switch typ {
	case "PublicKey":
		return PublicKeysG1
	case "Signature":
		return SignaturesG1
	}
	return HashedG1Affine
}

// g2Values is g1Values for G2.
func g2Values(typ model.Type) func() []blst.P2Affine {
	switch typ {
	case "PublicKey":
		return PublicKeysG2
	case "Signature":
		return SignaturesG2
	}
	return HashedG2Affine
}

// serialized returns a function giving the uncompressed encodings of
// values, computed once.
func serializedG1(values func() []blst.P1Affine) func() [][]byte {
	return sync.OnceValue(func() [][]byte {
		out := make([][]byte, Distinct)
		for i := range values() {
			out[i] = values()[i].Serialize()
		}
		return out
	})
}

func serializedG2(values func() []blst.P2Affine) func() [][]byte {
	return sync.OnceValue(func() [][]byte {
		out := make([][]byte, Distinct)
		for i := range values() {
			out[i] = values()[i].Serialize()
		}
		return out
	})
}
