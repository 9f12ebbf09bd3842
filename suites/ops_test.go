package suites

import (
	"errors"
	"strings"
	"testing"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// opFake builds an Op whose harness returns result and err for valid
// inputs, and rejectErr for invalid ones (nil: it accepts them).
func opFake(op vocab.Op, result []byte, err, rejectErr error, hasInvalid bool) Op {
	return Op{Key: results.Key{Type: vocab.Signature, Lib: vocab.Gnark, Repr: vocab.Affine, Op: op, Batch: 1},
		Prepare: func(in OpInput) (OpHarness, error) {
			if in.Invalid && !hasInvalid {
				return OpHarness{}, ErrNoInvalidInput
			}
			runErr := err
			if in.Invalid {
				runErr = rejectErr
			}
			return OpHarness{Run: func() error { return runErr }, Result: func() ([]byte, error) { return result, nil }}, nil
		}}
}

func TestCheckOpCatchesBrokenHarnesses(t *testing.T) {
	v, err := fixtures.Load()
	if err != nil {
		t.Fatal(err)
	}
	rejected := errors.New("did not verify")
	tests := []struct {
		name        string
		op          Op
		wantCheck   string // substring of CheckOp's error; "" = no error
		wantRejects string // substring of CheckOpRejects's error
	}{
		{"verify that verifies nothing", opFake("verify", []byte{1}, nil, nil, true), "", "accepted an input it must reject"},
		{"honest verify", opFake("verify", []byte{1}, nil, rejected, true), "", ""},
		{"verify that fails valid input", opFake("verify", []byte{0}, rejected, rejected, true), "running on valid inputs", ""},
		{"compress of the wrong point", opFake("compress", v.Ops.Sig, nil, nil, false), "wrong result", ""},
		{"compress of the right point", opFake("compress", v.Ops.AggregateSig, nil, nil, false), "", ""},
		{"sign of the wrong key", opFake("sign", v.Ops.AggregateSig, nil, nil, false), "wrong result", ""},
		{"checked decode that checks nothing", opFake("decompress-checked", v.Ops.AggregateSig, nil, nil, true), "", "accepted an input it must reject"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := CheckOp(tt.op, v)
			if got := errString(err); !matches(got, tt.wantCheck) {
				t.Errorf("CheckOp: got error %q, want one containing %q", got, tt.wantCheck)
			}
			err = CheckOpRejects(tt.op)
			if got := errString(err); !matches(got, tt.wantRejects) {
				t.Errorf("CheckOpRejects: got error %q, want one containing %q", got, tt.wantRejects)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func matches(got, want string) bool {
	if want == "" {
		return got == ""
	}
	return strings.Contains(got, want)
}

func TestWantOpResultKnowsEveryOp(t *testing.T) {
	v, err := fixtures.Load()
	if err != nil {
		t.Fatal(err)
	}
	// BLS12-381's operations: the others' results come from Op.Want
	// (TestKZGOpsKnowTheirResults).
	for _, op := range vocab.BLS12381.Ops() {
		for _, typ := range []vocab.Type{vocab.PublicKey, vocab.Signature, vocab.G1, vocab.G2} {
			batches := []int{1}
			if op == vocab.MSM {
				batches = OpMSMSizes
			}
			for _, n := range batches {
				want, err := WantResult(results.Key{Type: typ, Op: op, Batch: n}, v)
				if err != nil || len(want) == 0 {
					t.Errorf("WantResult(%s, %s, batch %d): got %x, %v; want a known result", typ, op, n, want, err)
				}
			}
		}
	}
	if _, err := WantOpResult("Signature", "nonsense", v); err == nil {
		t.Error("WantOpResult of an unknown op: got no error")
	}
}

func TestNewRegistryRejectsBadOps(t *testing.T) {
	prep := func(OpInput) (OpHarness, error) { return OpHarness{}, nil }
	key := func(op vocab.Op, lib vocab.Lib, batch int) results.Key {
		return results.Key{Type: vocab.Signature, Lib: lib, Repr: vocab.Affine, Op: op, Batch: batch}
	}
	tests := []struct {
		name string
		ops  []Op
		want string
	}{
		{"unknown op", []Op{{Key: key("teleport", vocab.Blst, 1), Prepare: prep}}, `op "teleport" is not one of`},
		{"unknown lib", []Op{{Key: key(vocab.Sign, "openssl", 1), Prepare: prep}}, `lib "openssl" is not one of`},
		{"neither prepare nor reason", []Op{{Key: key(vocab.Sign, vocab.Blst, 1)}}, "exactly one of Prepare and Unavailable"},
		{"both prepare and reason", []Op{{Key: key(vocab.Sign, vocab.Blst, 1), Prepare: prep, Unavailable: vocab.Because(vocab.NotOffered, "x")}}, "exactly one of Prepare and Unavailable"},
		{"reason without a kind", []Op{{Key: key(vocab.Sign, vocab.Blst, 1), Unavailable: vocab.Why{Reason: "x"}}}, "without a known kind"},
		{"zero batch", []Op{{Key: key(vocab.Sign, vocab.Blst, 0), Prepare: prep}}, "batch must be at least 1"},
		{"duplicate", []Op{{Key: key(vocab.Sign, vocab.Blst, 1), Prepare: prep}, {Key: key(vocab.Sign, vocab.Blst, 1), Prepare: prep}}, "duplicate op"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewRegistry(Suite{Name: "test", Ops: tt.ops})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("NewRegistry: got error %v, want one containing %q", err, tt.want)
			}
		})
	}
}
