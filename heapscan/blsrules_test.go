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

// ruleCase is a real library function and the rule its frame must fall
// under; the name comes from the runtime, as profiles carry it.
type ruleCase struct {
	fn   any
	rule string
}

func funcName(f any) string {
	return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
}

// pureGoRuleCases are the gnark-crypto and circl functions; blst's are in
// blsrules_cgo_test.go.
var pureGoRuleCases = []ruleCase{
	{bls.KeyGen[bls.KeyG1SigG2], "SecretKey"},
	{(*bls.PrivateKey[bls.KeyG1SigG2]).UnmarshalBinary, "SecretKey"},
	{(*bls.PrivateKey[bls.KeyG1SigG2]).PublicKey, "PublicKey"},
	{(*bls.PublicKey[bls.KeyG1SigG2]).UnmarshalBinary, "PublicKey"},
	{bls.Sign[bls.KeyG1SigG2], "Signature"},
	{bls.Aggregate[bls.KeyG1SigG2], "AggregateSignature"},
	{(*circlecc.G1).SetBytes, "G1"},
	{(*circlecc.G2).SetBytes, "G2"},
	{(*gnark.G1Affine).SetBytes, "G1"},
	{(*gnark.G1Affine).Unmarshal, "G1"},
	{(*gnark.G2Affine).SetBytes, "G2"},
	{(*gnark.G1Affine).FromJacobian, "G1"},
	{gnark.BatchJacobianToAffineG1, "G1"},
	{gnark.HashToG2, "G2"},
	{(*gnark.Decoder).Decode, "Decoder"},
}

// TestBLSRules checks fixtures/bls.rules.yaml against the names the
// runtime gives the libraries' functions, through a profile whose stacks
// are those frames, so a rename in a library or a broken pattern fails.
func TestBLSRules(t *testing.T) {
	checkRules(t, "../fixtures/bls.rules.yaml", append(append([]ruleCase{}, pureGoRuleCases...), cgoRuleCases...))
}

// checkRules reads the rules file and checks that a sample whose stack is
// each case's frame under main.main falls under the case's rule; it
// returns the rules.
func checkRules(t *testing.T, file string, cases []ruleCase) *heapscan.Rules {
	t.Helper()
	rules, err := heapscan.ReadRules(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		name := funcName(c.fn)
		t.Run(name, func(t *testing.T) {
			// One sample whose stack is the library frame under a caller.
			h := oneStackHeap(t, name, "main.main")
			s, err := h.Summarize(heapscan.Options{GroupBy: "rule", Rules: rules})
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Rows) != 1 || s.Rows[0].Key != c.rule {
				t.Errorf("frame %s: got rows %+v, want rule %s", name, s.Rows, c.rule)
			}
		})
	}
	return rules
}
