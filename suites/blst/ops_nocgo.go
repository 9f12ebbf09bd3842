//go:build !cgo

package blst

import "github.com/memprof/memprof/suites"

// opNoCgo is why every blst operation is missing from a build without cgo.
const opNoCgo = "blst needs cgo; this build has CGO_ENABLED=0"

func init() {
	ops := []struct {
		typ, repr, op string
		batch         int
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
	for _, o := range ops {
		suites.RegisterOp(suites.Op{Type: o.typ, Lib: "blst", Repr: o.repr, Op: o.op, Batch: o.batch, Unavailable: opNoCgo})
	}
	suites.RegisterAgreeLib(suites.AgreeLib{Lib: "blst", Unavailable: opNoCgo})
}
