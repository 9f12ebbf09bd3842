// Package libsecp256k1 registers the secp256k1 cases of go-ethereum:
// github.com/ethereum/go-ethereum/crypto/secp256k1, its cgo binding of the
// libsecp256k1 C sources it vendors, with the key types of its crypto
// package (*ecdsa.PrivateKey, *ecdsa.PublicKey with *big.Int
// coordinates, common.Address). Without cgo go-ethereum's crypto package
// silently uses decred instead, so this package then registers every
// entry, operation and agreement library as needing cgo rather than
// measure decred under go-ethereum's name (suites/decred measures decred).
package libsecp256k1
