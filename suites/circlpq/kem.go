package circlpq

import (
	"fmt"

	"github.com/cloudflare/circl/kem"
	"github.com/cloudflare/circl/kem/mlkem/mlkem1024"
	"github.com/cloudflare/circl/kem/mlkem/mlkem512"
	"github.com/cloudflare/circl/kem/mlkem/mlkem768"

	"github.com/memprof/memprof/suites/internal/pqkit"
)

// kemKey is what circl's three ML-KEM packages have in common: a private
// key DK and a public key EK with Pack and Unpack.
type kemKey interface {
	Pack([]byte)
	Unpack([]byte) error
}

// unpack is a new K unpacked from b.
func unpack[K any, P interface {
	*K
	kemKey
}](b []byte) (*K, error) {
	k := new(K)
	return k, P(k).Unpack(b)
}

// packer packs a K into a new slice of size bytes.
func packer[K any, P interface {
	*K
	kemKey
}](size int) func(*K) []byte {
	return func(k *K) []byte {
		b := make([]byte, size)
		P(k).Pack(b)
		return b
	}
}

// keyFromSeed is circl's NewKeyFromSeed of package name, which panics on
// a seed of the wrong length, with the length checked first; it returns
// the private key.
func keyFromSeed[Public, Private any](name string, size int, newKey func([]byte) (*Public, *Private)) func([]byte) (*Private, error) {
	return func(seed []byte) (*Private, error) {
		if len(seed) != size {
			return nil, fmt.Errorf("%s: seed of %d bytes, want %d", name, len(seed), size)
		}
		_, k := newKey(seed)
		return k, nil
	}
}

// kemPackage is one of circl's ML-KEM packages: its name, sizes and the
// calls that are not methods.
type kemPackage[DK, EK any] struct {
	name                                         string
	set                                          pqkit.Set
	seedSize, ekSize, dkSize, ctSize, sharedSize int
	newKeyFromSeed                               func([]byte) (*EK, *DK)
	public                                       func(*DK) kem.PublicKey
	encapsulateTo                                func(ek *EK, ct, ss, seed []byte)
	decapsulateTo                                func(dk *DK, ss, ct []byte)
}

// kemOf describes circl's ML-KEM package p. circl panics on a seed,
// randomness or ciphertext of the wrong length: the calls check the
// lengths first and return an error instead.
func kemOf[DK, EK any, PDK interface {
	*DK
	kemKey
}, PEK interface {
	*EK
	kemKey
}](p kemPackage[DK, EK]) pqkit.KEM[DK, EK] {
	dkName, ekName := "*"+p.name+".PrivateKey", "*"+p.name+".PublicKey"
	return pqkit.KEM[DK, EK]{
		Lib: lib, Set: p.set,
		SeedSize: p.seedSize, EKSize: p.ekSize, CiphertextSize: p.ctSize, PackedDKSize: p.dkSize,
		DKName: dkName, DKHolds: "pointers to its own copy of the public key (ρ, the matrix Aᵀ and NTT(t)) and to NTT(s), beside H(ek) and z; the seed d is not kept",
		EKName: ekName, EKHolds: "a pointer to ρ, the matrix Aᵀ and NTT(t), beside H(ek)",
		KeyGen:  pqkit.Offers(p.name+".NewKeyFromSeed", keyFromSeed(p.name, p.seedSize, p.newKeyFromSeed)),
		ParseDK: pqkit.Offers("("+dkName+").Unpack", unpack[DK, PDK]),
		PackDK:  pqkit.Offers("("+dkName+").Pack", packer[DK, PDK](p.dkSize)),
		ToSeed:  pqkit.Lacks[func(*DK) []byte](lib, "%s's PrivateKey does not keep the seed d‖z that NewKeyFromSeed expands (it keeps z only)", p.name),
		EKOf:    func(dk *DK) *EK { return any(p.public(dk)).(*EK) },
		ParseEK: pqkit.Offers("("+ekName+").Unpack", unpack[EK, PEK]),
		PackEK:  pqkit.Offers("("+ekName+").Pack", packer[EK, PEK](p.ekSize)),
		Encapsulate: pqkit.Offers("("+ekName+").EncapsulateTo", func(ek *EK, m []byte) ([]byte, []byte, error) {
			if len(m) != 32 {
				return nil, nil, fmt.Errorf("%s: randomness of %d bytes, want 32", p.name, len(m))
			}
			ct, ss := make([]byte, p.ctSize), make([]byte, p.sharedSize)
			p.encapsulateTo(ek, ct, ss, m)
			return ct, ss, nil
		}),
		Decapsulate: pqkit.Offers("("+dkName+").DecapsulateTo", func(dk *DK, ct []byte) ([]byte, error) {
			if len(ct) != p.ctSize {
				return nil, fmt.Errorf("%s: ciphertext of %d bytes, want %d (circl panics on it; checked here first)", p.name, len(ct), p.ctSize)
			}
			ss := make([]byte, p.sharedSize)
			p.decapsulateTo(dk, ss, ct)
			return ss, nil
		}),
	}
}

var (
	kem512 = kemOf[mlkem512.PrivateKey, mlkem512.PublicKey](kemPackage[mlkem512.PrivateKey, mlkem512.PublicKey]{
		"mlkem512", "ML-KEM-512", mlkem512.KeySeedSize, mlkem512.PublicKeySize, mlkem512.PrivateKeySize, mlkem512.CiphertextSize, mlkem512.SharedKeySize,
		mlkem512.NewKeyFromSeed, (*mlkem512.PrivateKey).Public, (*mlkem512.PublicKey).EncapsulateTo, (*mlkem512.PrivateKey).DecapsulateTo})
	kem768 = kemOf[mlkem768.PrivateKey, mlkem768.PublicKey](kemPackage[mlkem768.PrivateKey, mlkem768.PublicKey]{
		"mlkem768", "ML-KEM-768", mlkem768.KeySeedSize, mlkem768.PublicKeySize, mlkem768.PrivateKeySize, mlkem768.CiphertextSize, mlkem768.SharedKeySize,
		mlkem768.NewKeyFromSeed, (*mlkem768.PrivateKey).Public, (*mlkem768.PublicKey).EncapsulateTo, (*mlkem768.PrivateKey).DecapsulateTo})
	kem1024 = kemOf[mlkem1024.PrivateKey, mlkem1024.PublicKey](kemPackage[mlkem1024.PrivateKey, mlkem1024.PublicKey]{
		"mlkem1024", "ML-KEM-1024", mlkem1024.KeySeedSize, mlkem1024.PublicKeySize, mlkem1024.PrivateKeySize, mlkem1024.CiphertextSize, mlkem1024.SharedKeySize,
		mlkem1024.NewKeyFromSeed, (*mlkem1024.PrivateKey).Public, (*mlkem1024.PublicKey).EncapsulateTo, (*mlkem1024.PrivateKey).DecapsulateTo})
)
