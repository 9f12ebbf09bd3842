package secpkit

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// The SenderCache scenario: the senders an indexer, a block builder or a
// transaction pool has recovered, kept by transaction hash. Each library's
// suite gives its forms (map-address, map-pointer, sigcache); the entries
// are measured at each of Populations.

// Populations are the sizes the scenario is measured at: ten thousand
// transactions (a pool: go-ethereum's holds 6,144 by default) and a
// million (an indexer's or a builder's cache).
var Populations = []int{10_000, 1_000_000}

// PopulationParam is the parameter of an entry of n transactions.
func PopulationParam(n int) results.Param { return results.NewParam("population", n) }

// SenderCacheKeys returns lib's scenario keys: each form at each
// population.
func SenderCacheKeys(lib vocab.Lib, forms ...vocab.Repr) []results.Key {
	var out []results.Key
	for _, f := range forms {
		for _, n := range Populations {
			out = append(out, results.Key{Type: vocab.SenderCache, Lib: lib, Repr: f, Layout: measure.Collection, Param: PopulationParam(n)})
		}
	}
	return out
}

// populationOf returns the population a scenario key names.
func populationOf(k results.Key) int {
	_, v := k.Param.Split()
	n, err := strconv.Atoi(v)
	if err != nil {
		panic(fmt.Sprintf("secpkit: SenderCache key %s has no population=N parameter", k))
	}
	return n
}

// TxHash returns the map key of transaction i: 32 bytes with i in the
// last eight, distinct for every i (a hash's value does not change what
// the map keeps).
func TxHash(i int) [32]byte {
	var h [32]byte
	copy(h[:], "memprof transaction hash")
	binary.BigEndian.PutUint64(h[24:], uint64(i))
	return h
}

// normalizeBatch is how many points share one field inversion when
// Senders makes them affine.
const normalizeBatch = 1024

// Senders returns the uncompressed public keys of the n secret keys 1, 2,
// ..., n: the points i·G, each computed from the previous by one addition
// of G (decred's AddNonConst) and made affine in batches that share one
// field inversion (Montgomery's trick), so that a million distinct real
// keys take seconds, not the minutes of a million scalar multiplications.
// The keys are real points of the curve; SenderSecretKey(i) is the secret
// key of Senders(n)[i]. The slice is the caller's.
func Senders(n int) [][UncompressedBytes]byte {
	out := make([][UncompressedBytes]byte, n)
	var g, p secp256k1.JacobianPoint
	var one secp256k1.ModNScalar
	one.SetInt(1)
	secp256k1.ScalarBaseMultNonConst(&one, &g)
	g.ToAffine()
	p.Set(&g)
	batch := make([]secp256k1.JacobianPoint, 0, normalizeBatch)
	prefix := make([]secp256k1.FieldVal, normalizeBatch)
	at := 0
	flush := func() {
		// prefix[k] = Z_0 ⋯ Z_k; one inversion of the product, then each
		// Z_k⁻¹ from the running inverse and the prefix before it.
		for k := range batch {
			if k == 0 {
				prefix[k].Set(&batch[k].Z)
			} else {
				prefix[k].Mul2(&prefix[k-1], &batch[k].Z)
			}
		}
		var inv, zInv, zInv2 secp256k1.FieldVal
		inv.Set(&prefix[len(batch)-1]).Inverse()
		for k := len(batch) - 1; k >= 0; k-- {
			if k > 0 {
				zInv.Mul2(&inv, &prefix[k-1])
				inv.Mul(&batch[k].Z)
			} else {
				zInv.Set(&inv)
			}
			zInv2.SquareVal(&zInv)
			x, y := &batch[k].X, &batch[k].Y
			x.Mul(&zInv2).Normalize()
			y.Mul(zInv2.Mul(&zInv)).Normalize()
			u := &out[at+k]
			u[0] = secp256k1.PubKeyFormatUncompressed
			x.PutBytesUnchecked(u[1:33])
			y.PutBytesUnchecked(u[33:])
		}
		at += len(batch)
		batch = batch[:0]
	}
	for range n {
		batch = append(batch, p)
		if len(batch) == normalizeBatch {
			flush()
		}
		secp256k1.AddNonConst(&p, &g, &p)
	}
	if len(batch) > 0 {
		flush()
	}
	return out
}

// SenderSecretKey returns the secret key of Senders' key i: i+1, 32 bytes
// big-endian.
func SenderSecretKey(i int) [SecretKeyBytes]byte {
	var k [SecretKeyBytes]byte
	binary.BigEndian.PutUint64(k[24:], uint64(i)+1)
	return k
}

// SenderCase is the case of a sender-cache form: Prepare computes the
// senders of the largest population asked for (profiling is off then),
// and the cache of n transactions is what build makes of the first n
// (transaction i's hash is TxHash(i)).
func SenderCase(size uintptr, build func(senders [][UncompressedBytes]byte, n int) any) memprof.Case {
	var senders [][UncompressedBytes]byte
	return memprof.Case{
		SizeOf: size,
		Prepare: func(n int) error {
			if len(senders) < n {
				senders = Senders(n)
			}
			return nil
		},
		NewAll: func(n int) any { return build(senders, n) },
	}
}

// SenderCacheConstructor is the sentence of a form's constructor: what
// the map holds and how each entry is made.
func SenderCacheConstructor(what, entry string, n int) string {
	return fmt.Sprintf("%s, one entry per transaction (%d), keyed by its 32-byte hash: %s; sender i is the public key (i+1)·G (secpkit.Senders)", what, n, entry)
}
