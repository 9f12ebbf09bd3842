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

// lib is the library name in the registry.
const lib = vocab.Libsecp256k1

// Module is go-ethereum's module path, whose version results record.
const Module = "github.com/ethereum/go-ethereum"

// cgoReason is what every otherwise available entry and operation says
// in a build without cgo.
var cgoReason = vocab.Because(vocab.NeedsCgo, "libsecp256k1 needs cgo; this build has CGO_ENABLED=0 (go-ethereum's crypto package would silently use decred, measured as decred)")

// The forms go-ethereum lacks.
var (
	noDER = secpkit.NotOffered(lib, "go-ethereum binds no DER encoding or parsing of libsecp256k1: its signatures are R‖S‖V byte slices (crypto.Sign, crypto.Ecrecover)")
	noSig = secpkit.NotOffered(lib, "go-ethereum's crypto/secp256k1 has no signature type: Sign returns, and VerifySignature and RecoverPubkey take, []byte")
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
	return append(secpkit.ObjectKeys(lib), secpkit.SenderCacheKeys(lib, senderForms...)...)
}

// Suite returns go-ethereum's secp256k1 entries, operations and agreement
// library. In a build without cgo every one says so.
func Suite() suites.Suite {
	return suites.Suite{
		Name:        string(lib),
		Modules:     []string{Module},
		Entries:     secpkit.Entries(keys(), lacks, buildReason, entryImpls()),
		Ops:         secpkit.Ops(secpkit.LibOps{Lib: lib, Unavailable: buildReason, Lacks: opLacks, Impls: opImpls()}),
		FamilyAgree: []suites.FamilyAgreeLib{agreeLib()},
	}
}
