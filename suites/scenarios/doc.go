// Package scenarios registers whole structures that real consensus clients
// keep, so that the cost per validator includes everything around the keys:
//
//   - PubkeyCache: a validator public-key cache of N entries, in the forms
//     clients use: a map[[48]byte]int index plus a []PublicKey by index
//     (index-slice), a map[[48]byte]*PublicKey (map-pointer), and the index
//     plus a slice of wrapper structs holding the key by pointer
//     (wrapper-pointer) or by value (wrapper-value); and shaped like
//     clients' caches: a map[[48]byte] of an interface value holding a
//     *struct{p *PublicKey}, the wrapper Prysm's crypto/bls uses, two
//     objects and an interface per validator (interface-map), and the same
//     keys and values in a github.com/hashicorp/golang-lru/v2 Cache of
//     capacity 2,000,000 (lru), measured at populations of 100,000 and
//     1,000,000, two rows told apart by their parameter population=N.
//   - AttestationPool: N signatures kept with their 32-byte message roots:
//     a slice of {root, signature} values (slice-value), of {root, *signature}
//     (slice-pointer), of {root, compressed signature} (slice-compressed), and
//     a map from root to *signature (map-root).
//
// Structures grow as a client grows them (maps without a size hint, slices
// by append), so map and slice growth steps are part of the measurement.
// The keys and signatures are real library values, the suites' own (the
// 64 min-pk keys and signatures that blst, gnark-crypto and circl derive
// byte-identically); instance i holds a copy of value i%64; the 48-byte map keys are the compressed public key with the
// validator index written into its last eight bytes, so every key is
// distinct, as in a real cache.
package scenarios
