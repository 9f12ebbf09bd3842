package heapscan_test

import (
	"reflect"
	"runtime"
	"testing"

	circlecc "github.com/cloudflare/circl/ecc/bls12381"
	"github.com/cloudflare/circl/sign/bls"
	gnark "github.com/consensys/gnark-crypto/ecc/bls12-381"

	"github.com/memprof/memprof/heapscan"
)

// ruleFuncs are real library functions and the rule their frames must
// fall under; their names come from the runtime, as profiles carry them.
type ruleFuncs struct {
	rule string
	fns  []any
}

func funcName(f any) string {
	return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
}

// pureGoRuleCases are the gnark-crypto and circl functions; blst's are in
// blsrules_cgo_test.go.
var pureGoRuleCases = []ruleFuncs{
	{"SecretKey", []any{bls.KeyGen[bls.KeyG1SigG2], (*bls.PrivateKey[bls.KeyG1SigG2]).UnmarshalBinary}},
	{"PublicKey", []any{(*bls.PrivateKey[bls.KeyG1SigG2]).PublicKey, (*bls.PublicKey[bls.KeyG1SigG2]).UnmarshalBinary}},
	{"Signature", []any{bls.Sign[bls.KeyG1SigG2]}},
	{"AggregateSignature", []any{bls.Aggregate[bls.KeyG1SigG2]}},
	{"G1", []any{(*circlecc.G1).SetBytes, (*gnark.G1Affine).SetBytes, (*gnark.G1Affine).Unmarshal, (*gnark.G1Affine).FromJacobian, gnark.BatchJacobianToAffineG1}},
	{"G2", []any{(*circlecc.G2).SetBytes, (*gnark.G2Affine).SetBytes, gnark.HashToG2}},
	{"Decoder", []any{(*gnark.Decoder).Decode}},
}

// TestBLSRules checks fixtures/bls.rules.yaml against the names the
// runtime gives the libraries' functions, through a profile whose stacks
// are those frames, so a rename in a library or a broken pattern fails.
func TestBLSRules(t *testing.T) {
	checkRules(t, "../fixtures/bls.rules.yaml", pureGoRuleCases, cgoRuleCases)
}

// checkRules reads the rules file and checks that a sample whose stack is
// each function's frame under main.main falls under its rule; it returns
// the rules.
func checkRules(t *testing.T, file string, tables ...[]ruleFuncs) *heapscan.Rules {
	t.Helper()
	rules, err := heapscan.ReadRules(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, table := range tables {
		for _, c := range table {
			for _, fn := range c.fns {
				name := funcName(fn)
				t.Run(name, func(t *testing.T) { checkStackRule(t, rules, c.rule, name, "main.main") })
			}
		}
	}
	return rules
}

// checkStackRule checks that one sample whose stack is frames, leaf
// first, falls under rule and only that one.
func checkStackRule(t *testing.T, rules *heapscan.Rules, rule string, frames ...string) {
	t.Helper()
	h := oneStackHeap(t, frames...)
	s, err := h.Summarize(heapscan.Options{GroupBy: "rule", Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Rows) != 1 || s.Rows[0].Key != rule {
		t.Errorf("stack %v: got rows %+v, want rule %s", frames, s.Rows, rule)
	}
}
