package libsecp256k1

import (
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/secpkit"
	"github.com/memprof/memprof/vocab"
)

// The table of what go-ethereum offers: both build variants make their
// entries and operations from it (cgo.go with cgo, nocgo.go without), so
// the two lists cannot drift.

// lib is the library name in the registry of what libsecp256k1
// computes; the pure-Go objects are go-ethereum's (libOf).
const lib = vocab.Libsecp256k1

// libOf is the library whose code allocates what a row of type t in repr
// keeps: go-ethereum's crypto package for its *ecdsa.PrivateKey and
// *ecdsa.PublicKey with math/big coordinates (decoded, and the sender
// cache of such keys), which libsecp256k1's C code never holds;
// libsecp256k1 for the byte forms it computes and takes.
func libOf(t vocab.Type, r vocab.Repr) vocab.Lib {
	if r == vocab.Decoded || (t == vocab.SenderCache && r == vocab.MapPointer) {
		return vocab.GoEthereum
	}
	return lib
}

// relabeled returns keys with each one's library libOf its type and form.
func relabeled(keys []results.Key) []results.Key {
	for i := range keys {
		keys[i].Lib = libOf(keys[i].Type, keys[i].Repr)
	}
	return keys
}

// Module is go-ethereum's module path, whose version results record.
const Module = "github.com/ethereum/go-ethereum"

// cgoReason is what every otherwise available entry and operation says
// in a build without cgo.
var cgoReason = vocab.Because(vocab.NeedsCgo, "go-ethereum's crypto package uses libsecp256k1 only with cgo; this build has CGO_ENABLED=0 (it would silently use decred, measured as decred)")

// The forms go-ethereum lacks.
var (
	noDER = secpkit.NotOffered(lib, "go-ethereum binds no DER encoding or parsing of libsecp256k1: its signatures are R‖S‖V byte slices (crypto.Sign, crypto.Ecrecover)")
	noSig = secpkit.NotOffered(vocab.GoEthereum, "neither go-ethereum's crypto package nor its binding of libsecp256k1 has a signature type: Sign returns, and VerifySignature and RecoverPubkey take, []byte")
)

// sigFormLacks says why go-ethereum has no signature in repr, or nothing.
func sigFormLacks(repr vocab.Repr) vocab.Why {
	switch repr {
	case vocab.DER:
		return noDER
	case vocab.Decoded:
		return noSig
	}
	return vocab.Why{}
}

// lacks says why go-ethereum has no such entry, or nothing.
func lacks(k results.Key) vocab.Why {
	if k.Type == vocab.Secp256k1Signature {
		return sigFormLacks(k.Repr)
	}
	return vocab.Why{}
}

// opLacks says why go-ethereum does not offer a row, or nothing.
func opLacks(r secpkit.Row) vocab.Why {
	if r.Type != vocab.Secp256k1Signature {
		return vocab.Why{}
	}
	if why := sigFormLacks(r.Repr); !why.IsZero() {
		return why
	}
	return sigFormLacks(r.To)
}

// senderForms are go-ethereum's forms of the SenderCache scenario.
var senderForms = []vocab.Repr{vocab.MapAddress, vocab.MapPointer, vocab.SigCache}

// keys are every entry's key: the objects, then the scenario.
func keys() []results.Key {
	return relabeled(append(secpkit.ObjectKeys(lib), secpkit.SenderCacheKeys(lib, senderForms...)...))
}

// Suite returns go-ethereum's secp256k1 entries, operations and agreement
// library. In a build without cgo every one says so.
func Suite() suites.Suite {
	return suites.Suite{
		Name:        string(lib),
		Modules:     []string{Module},
		Entries:     secpkit.Entries(keys(), lacks, buildReason, entryImpls()),
		Ops:         ops(),
		FamilyAgree: agreeLibs(),
	}
}

// ops are go-ethereum's operations, each labelled by the library that
// keeps the form it starts from (libOf).
func ops() []suites.Op {
	out := secpkit.Ops(secpkit.LibOps{Lib: lib, Unavailable: buildReason, Lacks: opLacks, Impls: opImpls()})
	for i := range out {
		out[i].Lib = libOf(out[i].Type, out[i].Repr)
	}
	return out
}
