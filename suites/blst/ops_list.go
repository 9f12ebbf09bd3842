package blst

import (
	"github.com/memprof/memprof/model"
	"github.com/memprof/memprof/suites"
)

// opList is every operation the blst suite offers (ops.go, with cgo).
// Without cgo, ops_nocgo.go makes each unavailable, so that tables
// say why the blst rows are missing; a cgo test keeps the two in step.
var opList = []struct {
	typ   model.Type
	repr  model.Repr
	op    model.Op
	batch int
}{
	{"PublicKey", "affine", "compress", 1},
	{"PublicKey", "affine", "serialize", 1},
	{"PublicKey", "jacobian", "compress", 1},
	{"PublicKey", "compressed", "decompress", 1},
	{"PublicKey", "compressed", "decompress-checked", 1},
	{"PublicKey", "affine", "aggregate", suites.OpAggregateN},
	{"PublicKey", "jacobian", "aggregate", suites.OpAggregateN},
	{"Signature", "affine", "compress", 1},
	{"Signature", "affine", "serialize", 1},
	{"Signature", "jacobian", "compress", 1},
	{"Signature", "compressed", "decompress", 1},
	{"Signature", "compressed", "decompress-checked", 1},
	{"Signature", "affine", "aggregate", suites.OpAggregateN},
	{"Signature", "jacobian", "aggregate", suites.OpAggregateN},
	{"Signature", "affine", "sign", 1},
	{"Signature", "affine", "verify", 1},
	{"Signature", "affine", "fast-aggregate-verify", suites.OpAggregateN},
	{"G1", "jacobian", "to-affine", 1},
	{"G2", "jacobian", "to-affine", 1},
	{"G1", "jacobian", "to-affine-batch", suites.OpBatchN},
	{"G2", "jacobian", "to-affine-batch", suites.OpBatchN},
}
