package blst

import (
	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
)

// The operations of the representations that trade memory for speed
// (speed.go): batch verification with per-thread pairing contexts
// (MultipleAggregateVerify) and in one context (PairingCtx), batch
// decompression into one shared array (BatchUncompress), and G1
// multi-scalar multiplication (P1Affines.Mult). Both builds list the same
// keys from speedKeys: without cgo each is unavailable.

// speedKey is one of those operations and whether what one call
// allocates depends on the number of cores.
type speedKey struct {
	model.Key
	cores bool
}

// speedKeys lists them.
func speedKeys() []speedKey {
	var out []speedKey
	for _, n := range suites.OpBatchVerifySizes {
		// blst starts min(n, GOMAXPROCS) workers, each with its own context.
		out = append(out,
			speedKey{model.Key{Type: model.Signature, Lib: lib, Repr: opRepr, Op: model.BatchVerify, Batch: n}, n > 1},
			speedKey{model.Key{Type: model.Signature, Lib: lib, Repr: opRepr, Op: model.PairingCtxVerify, Batch: n}, false})
	}
	out = append(out, speedKey{model.Key{Type: model.Signature, Lib: lib, Repr: model.Compressed, Op: model.Decompress, Batch: suites.OpAggregateN}, true})
	for _, n := range suites.OpMSMSizes {
		out = append(out, speedKey{model.Key{Type: model.G1, Lib: lib, Repr: opRepr, Op: model.MSM, Batch: n}, true})
	}
	return out
}

// cgoLessSpeedOps returns the operations of speedKeys, each unavailable
// for why.
func cgoLessSpeedOps(why model.Why) []suites.Op {
	var out []suites.Op
	for _, k := range speedKeys() {
		out = append(out, suites.Op{Key: k.Key, Unavailable: why})
	}
	return out
}

// batchEntryKey is the instance case of signatures decoded by
// BatchUncompress: pointers into one shared array, a structure built as
// a whole (the collection layout), beside the pointer layout's one
// Uncompress per point.
var batchEntryKey = model.Key{Type: model.Signature, Lib: lib, Repr: opRepr, Layout: model.Collection, Scheme: model.MinPk}
