//go:build cgo

package blst

import (
	"bytes"
	"crypto/sha256"
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	blst "github.com/supranational/blst/bindings/go"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/internal/goldenfile"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/suites/internal/suitetest"
	"github.com/memprof/memprof/vocab"
)

var opUpdate = flag.Bool("update", false, "rewrite fixtures/vectors.json and suites/internal/suitekit/encoded.bin from blst")

// opVectorsPath is the vectors file, relative to this package.
var opVectorsPath = filepath.Join("..", "..", "fixtures", "vectors.json")

// agreeCaseMsgLens are the message lengths of the 20 agreement cases: empty,
// tiny, around the SHA-256 block and the field sizes, and long.
var agreeCaseMsgLens = []int{0, 1, 2, 3, 7, 16, 31, 32, 33, 47, 48, 63, 64, 65, 96, 127, 128, 255, 256, 1000}

// opBytes expands a label into n deterministic bytes (SHA-256 in counter
// mode).
func opBytes(label string, n int) []byte {
	var out []byte
	for i := 0; len(out) < n; i++ {
		h := sha256.Sum256(fmt.Appendf(nil, "%s/%d", label, i))
		out = append(out, h[:]...)
	}
	return out[:n]
}

// opGenerateVectors computes the whole vectors file with blst.
func opGenerateVectors(t *testing.T) *fixtures.Vectors {
	t.Helper()
	v := &fixtures.Vectors{
		Comment:   "BLS12-381 min-pk vectors made by blst. cases: IETF KeyGen of ikm (salt \"BLS-SIG-KEYGEN-SALT-\" hashed first, empty key info), sk big-endian, pk = sk*G1 and sig = sk*H(msg) compressed (ZCash encoding). ops: the known results of memprof's throughput operations; key i of the ops has IKM SHA-256(\"memprof op key \" followed by i in decimal).",
		Generator: "go generate ./fixtures (runs: go test ./suites/blst -run TestVectorsFile -update; needs cgo)",
		DST:       string(suites.OpDST),
	}
	for i, n := range agreeCaseMsgLens {
		ikm := opBytes(fmt.Sprint("memprof agreement ikm ", i), 32)
		msg := opBytes(fmt.Sprint("memprof agreement msg ", i), n)
		sk := blst.KeyGen(ikm)
		pk := new(blst.P1Affine).From(sk)
		sig := new(blst.P2Affine).Sign(sk, msg, suites.OpDST)
		v.Cases = append(v.Cases, fixtures.Case{
			Name: fmt.Sprintf("case-%02d-msg%d", i, n), IKM: ikm, Msg: msg, SK: sk.Serialize(),
			PK: pk.Compress(), Sig: sig.Compress(), PKUncompressed: pk.Serialize(), SigUncompressed: sig.Serialize(),
		})
	}
	d, err := opInputs()
	if err != nil {
		t.Fatal(err)
	}
	// The aggregates from the sum of the secret keys, not from adding the
	// points: the known truth for every aggregate operation.
	sum := new(blst.Scalar).Deserialize(d.SKs[0].Serialize())
	for _, sk := range d.SKs[1:] {
		var ok bool
		if sum, ok = sum.Add(sk); !ok {
			t.Fatal("blst scalar addition failed")
		}
	}
	aggPK := new(blst.P1Affine).From(sum)
	aggSig := new(blst.P2Affine).Sign(sum, suites.OpMessage, suites.OpDST)
	p1s, p2s := pkGroup().Convert.Points(suites.OpBatchN), sigGroup().Convert.Points(suites.OpBatchN)
	v.Ops = fixtures.Ops{
		Keys: suites.OpAggregateN, Message: suites.OpMessage, OtherMessage: suites.OpOtherMessage,
		PK: d.PKs.Each[0].Compress(), Sig: d.Sigs.Each[0].Compress(),
		AggregatePK: aggPK.Compress(), AggregateSig: aggSig.Compress(),
		AggregatePKUncompressed: aggPK.Serialize(), AggregateSigUncompressed: aggSig.Serialize(),
		BatchN:        suites.OpBatchN,
		ToAffineG1:    p1s[0].ToAffine().Compress(),
		ToAffineG2:    p2s[0].ToAffine().Compress(),
		BatchG1SHA256: suites.OpBatchHash(func(i int) []byte { return p1s[i].ToAffine().Compress() }, len(p1s)),
		BatchG2SHA256: suites.OpBatchHash(func(i int) []byte { return p2s[i].ToAffine().Compress() }, len(p2s)),
	}
	for _, n := range suites.OpMSMSizes {
		k := suites.OpMSMCombined(n)
		v.Ops.MSM = append(v.Ops.MSM, fixtures.MSM{Points: n, Result: blst.P1Generator().Mult(new(blst.Scalar).FromBEndian(k[:])).ToAffine().Compress()})
	}
	v.Ops.NotOnCurveG1, v.Ops.NotInSubgroupG1 = opInvalidPoints(48, (*blst.P1Affine).InG1)
	v.Ops.NotOnCurveG2, v.Ops.NotInSubgroupG2 = opInvalidPoints(96, (*blst.P2Affine).InG2)
	if v.Ops.NotInSubgroupG1 == nil || v.Ops.NotOnCurveG1 == nil || v.Ops.NotInSubgroupG2 == nil || v.Ops.NotOnCurveG2 == nil {
		t.Fatal("no invalid point found among x < 256")
	}
	return v
}

// opInvalidPoints returns the invalid points of a group whose compressed
// encodings have size bytes (the smallest x whose point is on the curve
// but outside the subgroup, and the smallest x with no point on the curve),
// or nil where no x below 256 has one.
func opInvalidPoints[A any, PA blstAffine[A]](size int, inGroup func(*A) bool) (notOnCurve, notInSubgroup []byte) {
	for x := byte(1); x != 0 && (notInSubgroup == nil || notOnCurve == nil); x++ {
		enc := make([]byte, size)
		enc[0], enc[size-1] = 0x80, x
		p := PA(new(A)).Uncompress(enc)
		switch {
		case p == nil && notOnCurve == nil:
			notOnCurve = enc
		case p != nil && !inGroup(p) && notInSubgroup == nil:
			notInSubgroup = enc
		}
	}
	return notOnCurve, notInSubgroup
}

// TestVectorsFile checks fixtures/vectors.json against what blst computes
// now; with -update it rewrites the file.
func TestVectorsFile(t *testing.T) {
	v := opGenerateVectors(t)
	want, err := fixtures.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	goldenfile.Check(t, opVectorsPath, want, *opUpdate)
	if *opUpdate {
		return
	}
	raw, err := fixtures.Raw()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(raw, want) {
		t.Errorf("the embedded vectors differ from what blst computes now (go generate ./fixtures rewrites %s, then rebuild)", opVectorsPath)
	}
}

// TestOps runs every blst operation once on valid inputs (its result must
// match the vectors) and once on invalid inputs (it must reject them).
func TestOps(t *testing.T) {
	v, err := fixtures.Load()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, op := range Suite().Ops {
		t.Run(op.BenchName(), func(t *testing.T) {
			if op.Unavailable.Kind == vocab.DoesNotApply {
				return // the input already is the output (compress from compressed)
			}
			if !op.Unavailable.IsZero() {
				t.Fatalf("blst op unavailable with cgo: %s", op.Unavailable.Reason)
			}
			if h, err := suites.CheckOp(op, v); err != nil {
				t.Error(err)
			} else if err := suitetest.CheckAgain(op, h, v); err != nil {
				t.Error(err)
			}
			if err := suites.CheckOpRejects(op); err != nil {
				t.Error(err)
			}
		})
		n++
	}
	if n == 0 {
		t.Fatal("no blst operation registered")
	}
}

// TestCgoLessOperationsMatch checks that a build without cgo lists
// exactly the operations ops.go makes (cgoLessOperations builds them from
// the same table, with the representations both share), each unavailable
// for lack of cgo.
func TestCgoLessOperationsMatch(t *testing.T) {
	keys := func(ops []suites.Op) []string {
		var out []string
		for _, o := range ops {
			out = append(out, o.Key.String())
		}
		return out
	}
	got, want := cgoLessOperations(cgoReason), operations()
	if g, w := keys(got), keys(want); !slices.Equal(g, w) {
		t.Errorf("without cgo: got operations\n  %s\nwant the ones ops.go makes\n  %s", strings.Join(g, "\n  "), strings.Join(w, "\n  "))
	}
	for _, o := range got {
		if o.Unavailable != cgoReason || o.Prepare != nil || o.Note != "" {
			t.Errorf("without cgo, %s: got unavailable %+v, prepare %v, note %q; want only %+v", o.Key, o.Unavailable, o.Prepare != nil, o.Note, cgoReason)
		}
	}
}
