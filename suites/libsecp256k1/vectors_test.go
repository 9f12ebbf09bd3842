//go:build cgo

package libsecp256k1

import (
	"encoding/hex"
	"flag"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/internal/goldenfile"
	"github.com/memprof/memprof/suites/internal/secpkit"
)

var opsUpdate = flag.Bool("update", false, "rewrite fixtures/secp256k1/ops.json from what libsecp256k1 computes")

// opsPath is ops.json from this package's directory.
const opsPath = "../../fixtures/secp256k1/ops.json"

// The key of ops.json and its address are go-ethereum's own test values
// (crypto/crypto_test.go of v1.17.10: testPrivHex, testAddrHex): the
// address is a known answer nobody here computed.
const (
	gethTestPrivHex = "289c2857d4598e37fb9647507e47a309d6133539bf21a8b9cb6df88fd5232032"
	gethTestAddrHex = "970e8128ab834e8eac17ab8e3812f010678cf791"
)

// generateOps computes ops.json with libsecp256k1.
func generateOps(t *testing.T) *fixtures.Secp256k1Ops {
	t.Helper()
	sk, _ := hex.DecodeString(gethTestPrivHex)
	k, err := crypto.ToECDSA(sk)
	if err != nil {
		t.Fatal(err)
	}
	msg := []byte("memprof secp256k1: the message every key signs")
	other := []byte("memprof secp256k1: a message nobody signed")
	o := &fixtures.Secp256k1Ops{
		Comment:   "One key (go-ethereum's crypto_test.go testPrivHex, whose address is its testAddrHex) and what libsecp256k1 makes of it: the known results of the secp256k1 operations.",
		Generator: "go generate ./fixtures (runs: go test ./suites/libsecp256k1 -run TestOpsVectorsFile -update; needs cgo)",
		SecretKey: sk, Message: msg, OtherMessage: other,
		Hash: crypto.Keccak256(msg), OtherHash: crypto.Keccak256(other),
		Compressed: crypto.CompressPubkey(&k.PublicKey), Uncompressed: crypto.FromECDSAPub(&k.PublicKey),
		Address: crypto.PubkeyToAddress(k.PublicKey).Bytes(),
	}
	if got := hex.EncodeToString(o.Address); got != gethTestAddrHex {
		t.Fatalf("address of go-ethereum's test key: got %s, want %s (go-ethereum's testAddrHex)", got, gethTestAddrHex)
	}
	if o.RSV, err = crypto.Sign(o.Hash, k); err != nil {
		t.Fatal(err)
	}
	if o.DER, err = secpkit.DERFromRS(o.RSV[:64]); err != nil {
		t.Fatal(err)
	}
	return o
}

// TestOpsVectorsFile: ops.json is what libsecp256k1 computes (with
// -update it rewrites the file).
func TestOpsVectorsFile(t *testing.T) {
	want, err := fixtures.MarshalSecp256k1Ops(generateOps(t))
	if err != nil {
		t.Fatal(err)
	}
	goldenfile.Check(t, opsPath, want, *opsUpdate)
	if _, err := fixtures.ParseSecp256k1Ops(want); err != nil {
		t.Error(err)
	}
}
