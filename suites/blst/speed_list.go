package blst

import (
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
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
	results.Key
	cores bool
}

// speedKeys lists them.
func speedKeys() []speedKey {
	var out []speedKey
	for _, n := range suites.OpBatchVerifySizes {
		// blst starts min(n, GOMAXPROCS) workers, each with its own context.
		out = append(out,
			speedKey{results.Key{Type: vocab.Signature, Lib: lib, Repr: opRepr, Op: vocab.BatchVerify, Batch: n}, n > 1},
			speedKey{results.Key{Type: vocab.Signature, Lib: lib, Repr: opRepr, Op: vocab.PairingCtxVerify, Batch: n}, false})
	}
	out = append(out, speedKey{results.Key{Type: vocab.Signature, Lib: lib, Repr: vocab.Compressed, Op: vocab.Decompress, Batch: suites.OpAggregateN}, true})
	for _, n := range suites.OpMSMSizes {
		out = append(out, speedKey{results.Key{Type: vocab.G1, Lib: lib, Repr: opRepr, Op: vocab.MSM, Batch: n}, true})
	}
	return out
}

// cgoLessSpeedOps returns the operations of speedKeys, each unavailable
// for why.
func cgoLessSpeedOps(why vocab.Why) []suites.Op {
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
var batchEntryKey = results.Key{Type: vocab.Signature, Lib: lib, Repr: opRepr, Layout: measure.Collection, Scheme: vocab.MinPk}
