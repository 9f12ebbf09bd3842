package report

import (
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	bn254agree "github.com/memprof/memprof/suites/agree/bn254"
	"github.com/memprof/memprof/vocab"
)

// bn254Fixture is results whose figures make the section's tables known:
// the precompile path of two libraries, three forms of a verifying key
// and the pairing check from each, and the key's IC in one form.
func bn254Fixture() *results.File {
	inst := func(typ vocab.Type, lib vocab.Lib, repr vocab.Repr, layout measure.Layout, n int, b, objects float64) results.Row {
		return results.Row{Key: results.Key{Type: typ, Lib: lib, Repr: repr, Layout: layout}, Measurement: measure.Measurement{N: n, BytesPerInstance: b, AllocsPerInstance: objects}}
	}
	op := func(typ vocab.Type, lib vocab.Lib, repr vocab.Repr, o vocab.Op, ns, b float64) results.ThroughputRow {
		return results.ThroughputRow{Key: results.Key{Type: typ, Lib: lib, Repr: repr, Op: o, Batch: 1},
			Timing: measure.Timing{Samples: 1, NsPerOpMedian: ns, NsPerOpQ1: ns, NsPerOpQ3: ns, SamplesNs: []float64{ns}, BytesPerOp: b}}
	}
	return &results.File{Schema: results.Schema,
		Instances: []results.Row{
			inst(vocab.Groth16VerifyingKey, vocab.Gnark, vocab.Affine, measure.Pointer, 1000, 448, 1),
			inst(vocab.Groth16VerifyingKey, vocab.Gnark, vocab.Prepared, measure.Pointer, 1000, 40960, 1),
			inst(vocab.Groth16VerifyingKey, vocab.BN256Cloudflare, vocab.Decoded, measure.Pointer, 1000, 928, 5),
			inst(vocab.Groth16VerifyingKey, vocab.BN256Cloudflare, vocab.Decoded, measure.Slice, 1000, 136.2, 1),
		},
		Throughput: []results.ThroughputRow{
			op(vocab.BN254G1, vocab.Gnark, vocab.Uncompressed, vocab.Add, 4000, 64),
			op(vocab.BN254G1, vocab.BN256Cloudflare, vocab.Uncompressed, vocab.Add, 30000, 384),
			op(vocab.BN254G2, vocab.Gnark, vocab.Affine, vocab.PairingCheck, 800e3, 1024),
			op(vocab.BN254G2, vocab.Gnark, vocab.Prepared, vocab.PairingCheck, 600e3, 2048),
			op(vocab.BN254G2, vocab.BN256Cloudflare, vocab.Decoded, vocab.PairingCheck, 3e6, 83680),
		},
	}
}

// TestBN254Section: the section has the precompiles' table, the key's
// forms and its trade-off (rows of the key against the pairing check of
// its G2 points), and the IC, with the fixture's figures.
func TestBN254Section(t *testing.T) {
	got := checkSection(t, bn254Fixture(), kzgFixture(), bn254agree.Family(), []string{
		"## BN254: ",
		"### The precompiles' path: bytes in, bytes out",
		"| gnark            |  4.000 µs · 64 B |",
		"| bn256-cloudflare | 30.00 µs · 384 B |",
		"### A Groth16 verifying key: plain against prepared",
		"| gnark            | prepared | pointer | 1000 | 40960 |           1 |",
		"In gnark, keeping Groth16VerifyingKey affine instead of prepared saves 40512 B per instance",
		"| gnark            | prepared |      40960 |",
		"### The key's IC: 1000 G1 points in one slice",
		"| bn256-cloudflare | decoded |  136.20 |             1 |      133.0 |",
	})
	if strings.Contains(got, "smallest overall") {
		t.Errorf("the key's trade-off compares keys with the IC's points:\n%s", got)
	}
}
