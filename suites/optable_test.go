package suites

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/vocab"
)

// fakePoint is a point of the fake library the table tests adapt: its
// compressed encoding is its one byte, its uncompressed encoding that
// byte twice.
type fakePoint [1]byte

// fakeJac is its "Jacobian" form.
type fakeJac struct{ v byte }

// fakeGroup returns a complete fake adapter on t's group whose decodes
// record the encodings they are given in *decoded.
func fakeGroup(t vocab.Type, decoded *[][]byte) Group[fakePoint, fakeJac, []byte, []byte] {
	pts := []fakePoint{{1}, {2}, {3}}
	sum := fakePoint{6}
	each := []*fakePoint{&pts[0], &pts[1], &pts[2]}
	compressed := func(p *fakePoint) []byte { return []byte{p[0]} }
	uncompressed := func(p *fakePoint) []byte { return []byte{p[0], p[0]} }
	decode := func(p *fakePoint, enc []byte) func() error {
		*decoded = append(*decoded, enc)
		return func() error { return nil }
	}
	return Group[fakePoint, fakeJac, []byte, []byte]{
		Lib: vocab.Gnark, Type: t, Repr: vocab.Affine,
		Points:     func() (Points[fakePoint], error) { return Points[fakePoint]{Each: each, Sum: &sum}, nil },
		Compressed: compressed, Uncompressed: uncompressed,
		Deserialize:       func(p *fakePoint, enc []byte) error { p[0] = enc[0]; return nil },
		Compress:          Offer("compress note", compressed),
		Serialize:         Offer("serialize note", uncompressed),
		Decompress:        Offer("decompress note", decode),
		DecompressChecked: Offer("checked note", decode),
		Aggregate: Offer("aggregate note", func(out *fakePoint, ps []*fakePoint) func() (*fakePoint, error) {
			return func() (*fakePoint, error) { return &sum, nil }
		}),
		Jacobian: &Jacobian[fakePoint, fakeJac, []byte, []byte]{
			FromAffine:   func(j *fakeJac, p *fakePoint) { j.v = p[0] },
			AddMixed:     func(j *fakeJac, p *fakePoint) { j.v += p[0] },
			Compressed:   func(j *fakeJac) []byte { return []byte{j.v} },
			Uncompressed: func(j *fakeJac) []byte { return []byte{j.v, j.v} },
			Compress:     Offer("jacobian compress note", func(j *fakeJac) func() []byte { return func() []byte { return []byte{j.v} } }),
			AddAssign:    Offer("jacobian aggregate note", func(acc, q *fakeJac) { acc.v += q.v }),
		},
		Convert: Conversions[fakePoint, fakeJac]{
			From:          vocab.Jacobian,
			Points:        func(n int) []fakeJac { return make([]fakeJac, n) },
			ToAffine:      Offer("to-affine note", func(out *fakePoint, p *fakeJac) *fakePoint { out[0] = p.v; return out }),
			ToAffineBatch: Offer("batch note", func(ps []fakeJac) []fakePoint { return make([]fakePoint, len(ps)) }),
		},
	}
}

func opKeys(ops []Op) []string {
	var out []string
	for _, o := range ops {
		out = append(out, o.Key.String())
	}
	return out
}

func TestGroupOpsRows(t *testing.T) {
	var decoded [][]byte
	full := fakeGroup(vocab.PublicKey, &decoded)
	noJacobian := fakeGroup(vocab.Signature, &decoded)
	noJacobian.Jacobian = nil
	tests := []struct {
		name string
		ops  []Op
		want []string
	}{
		{"with Jacobian points", full.Ops(), []string{
			"PublicKey/gnark/affine op=compress",
			"PublicKey/gnark/affine op=serialize",
			"PublicKey/gnark/jacobian op=compress",
			"PublicKey/gnark/compressed op=decompress",
			"PublicKey/gnark/compressed op=decompress-checked",
			"PublicKey/gnark/affine op=aggregate batch=128",
			"PublicKey/gnark/jacobian op=aggregate batch=128",
			"G1/gnark/jacobian op=to-affine",
			"G1/gnark/jacobian op=to-affine-batch batch=1000",
		}},
		{"without Jacobian points", noJacobian.Ops(), []string{
			"Signature/gnark/affine op=compress",
			"Signature/gnark/affine op=serialize",
			"Signature/gnark/compressed op=decompress",
			"Signature/gnark/compressed op=decompress-checked",
			"Signature/gnark/affine op=aggregate batch=128",
			"G2/gnark/jacobian op=to-affine",
			"G2/gnark/jacobian op=to-affine-batch batch=1000",
		}},
		{"scheme", Scheme[int]{Lib: vocab.Circl, Repr: vocab.Compressed}.Ops(), []string{
			"Signature/circl/compressed op=sign",
			"Signature/circl/compressed op=verify",
			"Signature/circl/compressed op=fast-aggregate-verify batch=128",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := opKeys(tt.ops)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got rows\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tt.want, "\n  "))
			}
		})
	}
}

func TestGroupOpsAvailability(t *testing.T) {
	var decoded [][]byte
	lacks := NotOffered(vocab.Gnark, "no such thing")
	cgo := vocab.Because(vocab.NeedsCgo, "needs cgo")
	tests := []struct {
		name   string
		adapt  func(g *Group[fakePoint, fakeJac, []byte, []byte])
		op     vocab.Op
		want   vocab.Why // the Unavailable of op
		note   string    // the Note of op when available
		others string    // the Note of compress: "" when every row is unavailable
	}{
		{"offered", func(*Group[fakePoint, fakeJac, []byte, []byte]) {}, vocab.Serialize, vocab.Why{}, "serialize note", "compress note"},
		{"lacking", func(g *Group[fakePoint, fakeJac, []byte, []byte]) {
			g.Serialize = Impl[func(*fakePoint) []byte]{Lacks: lacks}
		}, vocab.Serialize, lacks, "", "compress note"},
		{"lacking a conversion", func(g *Group[fakePoint, fakeJac, []byte, []byte]) {
			g.Convert.ToAffineBatch = Impl[func([]fakeJac) []fakePoint]{Lacks: lacks}
		}, vocab.ToAffineBatch, lacks, "", "compress note"},
		{"the whole group unavailable", func(g *Group[fakePoint, fakeJac, []byte, []byte]) { g.Unavailable = cgo }, vocab.Serialize, cgo, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := fakeGroup(vocab.PublicKey, &decoded)
			tt.adapt(&g)
			for _, o := range g.Ops() {
				switch {
				case o.Op == tt.op:
					if o.Unavailable != tt.want || o.Note != tt.note || (o.Prepare != nil) != tt.want.IsZero() {
						t.Errorf("%s: got unavailable %+v, note %q, prepare %v; want %+v, %q", o.Key, o.Unavailable, o.Note, o.Prepare != nil, tt.want, tt.note)
					}
				case o.Op == vocab.Compress && o.Repr == vocab.Affine:
					if o.Note != tt.others {
						t.Errorf("%s: got note %q, want %q", o.Key, o.Note, tt.others)
					}
				}
			}
			if _, err := NewRegistry(Suite{Name: "fake", Ops: g.Ops()}); err != nil {
				t.Errorf("NewRegistry: %v", err)
			}
		})
	}
}

// TestGroupOpsMissingImpl: an adapter that neither offers nor lacks an
// operation makes a suite NewRegistry rejects, naming the operation.
func TestGroupOpsMissingImpl(t *testing.T) {
	var decoded [][]byte
	tests := []struct {
		name  string
		adapt func(g *Group[fakePoint, fakeJac, []byte, []byte])
		want  string
	}{
		{"no impl", func(g *Group[fakePoint, fakeJac, []byte, []byte]) { g.Compress = Impl[func(*fakePoint) []byte]{} }, "PublicKey/gnark/affine op=compress"},
		{"a note without a function", func(g *Group[fakePoint, fakeJac, []byte, []byte]) { g.Aggregate.Do = nil }, "PublicKey/gnark/affine op=aggregate"},
		{"a function without a note", func(g *Group[fakePoint, fakeJac, []byte, []byte]) { g.Convert.ToAffine.Note = "" }, "G1/gnark/jacobian op=to-affine"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := fakeGroup(vocab.PublicKey, &decoded)
			tt.adapt(&g)
			_, err := NewRegistry(Suite{Name: "fake", Ops: g.Ops()})
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "exactly one of Prepare and Unavailable") {
				t.Errorf("NewRegistry: got error %v, want one naming %s", err, tt.want)
			}
		})
	}
}

// TestGroupDecodeInputs checks that the decode rows decode the compressed
// sum, and for the input they must reject the point of the vectors in the
// row's group: not on the curve for decompress, outside the subgroup for
// decompress-checked.
func TestGroupDecodeInputs(t *testing.T) {
	v, err := fixtures.Load()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		typ     vocab.Type
		op      vocab.Op
		invalid bool
		want    []byte
	}{
		{vocab.PublicKey, vocab.Decompress, false, []byte{6}},
		{vocab.PublicKey, vocab.Decompress, true, v.Ops.NotOnCurveG1},
		{vocab.PublicKey, vocab.DecompressChecked, true, v.Ops.NotInSubgroupG1},
		{vocab.Signature, vocab.Decompress, true, v.Ops.NotOnCurveG2},
		{vocab.Signature, vocab.DecompressChecked, false, []byte{6}},
		{vocab.Signature, vocab.DecompressChecked, true, v.Ops.NotInSubgroupG2},
	}
	for _, tt := range tests {
		t.Run(string(tt.typ)+"/"+string(tt.op)+map[bool]string{true: "/invalid"}[tt.invalid], func(t *testing.T) {
			var decoded [][]byte
			for _, o := range fakeGroup(tt.typ, &decoded).Ops() {
				if o.Op == tt.op {
					if _, err := o.Prepare(OpInput{Invalid: tt.invalid}); err != nil {
						t.Fatal(err)
					}
				}
			}
			if len(decoded) != 1 || !bytes.Equal(decoded[0], tt.want) {
				t.Errorf("got decoded inputs %x, want [%x]", decoded, tt.want)
			}
		})
	}
}

// TestSchemeVerifyRejects checks that verify is given OpOtherMessage for
// the input it must reject: a verification that ignores its message is
// caught by CheckOpRejects.
func TestSchemeVerifyRejects(t *testing.T) {
	honest := func(_ int, msg []byte) func() (bool, error) {
		return func() (bool, error) { return bytes.Equal(msg, OpMessage), nil }
	}
	lenient := func(int, []byte) func() (bool, error) { return func() (bool, error) { return true, nil } }
	broken := func(int, []byte) func() (bool, error) {
		return func() (bool, error) { return false, errors.New("cannot hash") }
	}
	tests := []struct {
		name        string
		verify      func(int, []byte) func() (bool, error)
		wantRejects string // substring of CheckOpRejects's error; "" = none
		wantRun     string // substring of Run's error on the valid input
	}{
		{"honest", honest, "", ""},
		{"accepts any message", lenient, "accepted an input it must reject", ""},
		{"fails", broken, "", "cannot hash"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Scheme[int]{Lib: vocab.Circl, Repr: vocab.Compressed, Inputs: func() (int, error) { return 0, nil },
				Verify: Offer("verify note", tt.verify)}
			op := s.Ops()[1]
			if got := errString(CheckOpRejects(op)); !matches(got, tt.wantRejects) {
				t.Errorf("CheckOpRejects: got error %q, want one containing %q", got, tt.wantRejects)
			}
			h, err := op.Prepare(OpInput{})
			if err != nil {
				t.Fatal(err)
			}
			if got := errString(h.Run()); !matches(got, tt.wantRun) {
				t.Errorf("Run: got error %q, want one containing %q", got, tt.wantRun)
			}
			h, err = op.Prepare(OpInput{Invalid: true})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := errString(h.Run()), "circl: signature did not verify"; tt.name == "honest" && got != want {
				t.Errorf("Run on the invalid input: got error %q, want %q", got, want)
			}
		})
	}
}

func TestEncodingBytes(t *testing.T) {
	g1 := [48]byte{0: 0xa0, 47: 7}
	g2 := [192]byte{0: 1, 191: 2}
	slice := []byte{1, 2, 3}
	tests := []struct {
		name string
		got  []byte
		want []byte
	}{
		{"slice", encodingBytes(&slice), slice},
		{"48-byte array", encodingBytes(&g1), g1[:]},
		{"192-byte array", encodingBytes(&g2), g2[:]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !bytes.Equal(tt.got, tt.want) {
				t.Errorf("got %x, want %x", tt.got, tt.want)
			}
		})
	}
}

func TestGroupRoundTrips(t *testing.T) {
	var decoded [][]byte
	g := fakeGroup(vocab.PublicKey, &decoded)
	g.DecompressChecked = Offer("checked", func(p *fakePoint, enc []byte) func() error {
		return func() error {
			if len(enc) != 1 {
				return errors.New("not one byte")
			}
			p[0] = enc[0]
			return nil
		}
	})
	trips := GroupRoundTrips(vocab.Gnark, g.RoundTrips, g.RoundTrips)
	got, err := trips(vocab.PublicKey, []byte{9})
	if err != nil {
		t.Fatal(err)
	}
	var reprs []string
	for _, tr := range got {
		reprs = append(reprs, string(tr.Repr))
		if !bytes.Equal(tr.Compressed, []byte{9}) || !bytes.Equal(tr.Uncompressed, []byte{9, 9}) {
			t.Errorf("%s: got %x, %x; want 09, 0909", tr.Repr, tr.Compressed, tr.Uncompressed)
		}
	}
	if got, want := strings.Join(reprs, " "), "affine jacobian compressed uncompressed"; got != want {
		t.Errorf("got representations %q, want %q", got, want)
	}
	if _, err := trips(vocab.PublicKey, []byte{9, 9}); err == nil || !strings.Contains(err.Error(), "not one byte") {
		t.Errorf("bad encoding: got error %v, want the decode's", err)
	}
	if _, err := trips(vocab.G1, []byte{9}); err == nil || !strings.Contains(err.Error(), `no round trip for type "G1"`) {
		t.Errorf("type G1: got error %v, want no round trip", err)
	}
}
