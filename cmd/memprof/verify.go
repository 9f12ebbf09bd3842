package main

import (
	"context"
	"io"

	"github.com/memprof/memprof/cmd/memprof/internal/cliflag"
	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/workflow"
)

var verifyCommand = &command{
	Name:      "verify",
	UsageLine: "verify [--format table|json] [-o FILE]",
	Short:     "check that the libraries of each family compute the same results",
	Long: `Verify runs the agreement checks that precede every throughput measurement.

BLS: for the 20 cases of fixtures/vectors.json (32-byte IKM, messages of varied
length, DST BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_), every library must
derive the same secret key (IETF KeyGen), public key and signature byte for
byte, verify every library's bytes and reject them for another message, and
round-trip the public key and the signature through each of its
representations to the same encodings. Then every library runs go-ethereum's
EIP-2537 precompile vectors (fixtures/eip2537: G1 and G2 addition, G1 scalar
multiplication, the pairing check, the maps to G1 and G2, and their fail-
files) where it offers the operation, the padded encodings converted, and must
return each output and refuse each failing input; the cases count them. In a
build without cgo, blst is reported unavailable and gnark-crypto and circl are
checked against the files.

KZG: for the 8 deterministic blobs of fixtures/kzg-vectors.json (made from the
file's seed), c-kzg and go-eth-kzg must compute the file's commitment, blob
proof, cells (the file keeps their SHA-256) and cell proofs byte for byte,
verify each other's blob proofs and cell proofs, reject the proofs of another
blob, and recover every blob's cells from half of them; then verify
go-ethereum's point evaluation vectors (fixtures/kzg-precompile) through the
precompile's checks, and refuse them with the claimed value changed. In a
build without cgo, c-kzg is reported unavailable and go-eth-kzg is checked
against the files.

secp256k1: go-ethereum's libsecp256k1 and decred must derive the public keys
and address of fixtures/secp256k1/ops.json's key (go-ethereum's own test
answer) and its RFC 6979 signature; derive byte-identical keys and R‖S‖V
signatures for 64 more keys and verify and recover each other's; give
go-ethereum's ecRecover precompile vectors their output; and accept exactly
what Wycheproof's ECDSA secp256k1 SHA-256 vectors accept (DER with Ethereum's
low-S rule; R‖S, where a high S verifies only without the rule, and recovers
the test's key). In a build without cgo, libsecp256k1 is reported unavailable
and decred is checked against the files.

BN254: gnark-crypto and go-ethereum's bn256-gnark, bn256-cloudflare and
bn256-google (all pure Go) run go-ethereum's EIP-196/197 precompile vectors
(fixtures/bn254: bn256Add, bn256ScalarMul, bn256Pairing) through the
precompiles built on each (input padded and split as the EVM reads it) and
must return every output byte for byte; refuse every input of this project's
failing vectors (points off the curve, coordinates not below the field
modulus, G2 points outside the subgroup, truncated input); compute its G2
additions and scalar multiplications and the multi-scalar multiplications;
and round-trip every point through each representation.

Post-quantum (fixtures/pq: circl's ACVP files and Wycheproof's mlkem_* and
mldsa_* files): for every parameter set, each library must give the known
keys from the vectors' seeds, encapsulations, decapsulations and deterministic
signatures byte for byte and refuse the invalid inputs; crypto/mlkem and circl
must make the same ML-KEM keys from the same seeds, decapsulate each other's
ciphertexts to the same key, a modified ciphertext to the same
implicit-rejection key, and refuse one of the wrong length; circl and
filippo.io/mldsa must make the same ML-DSA keys and deterministic signatures,
verify each other's and refuse a flipped bit and a short public key. SLH-DSA
(circl alone) is checked against its known answers; the signatures of its
small (s) sets take seconds each and are checked in .ci/run only.

Every other family with suites in
this build has its own check, run here too. When more than one family is
checked, the table prints one line per family, and the results' agreement
record keeps each family's check under "families".

Before the libraries, verify reads every vector file built into memprof and
checks it against the SHA-256 that fixtures/PROVENANCE.md records (with its
source and number of cases); the table ends with one line per file and its
number of cases. A file cut or edited, or one without a record, fails the
check, naming the file, the recorded SHA-256 and the file's; every agreement
check that reads such a file fails the same way.

Exit status is 0 when the libraries agree, 1 when they do not (the error names
the case or blob, the object, the libraries and the first differing byte) or a
vector file is not the recorded one, 2 for a usage error.`,
	Run: runVerify,
	Examples: []example{
		{Line: "memprof verify", What: "check that the libraries agree on the test vectors", Measures: true},
	},
}

func runVerify(ctx context.Context, inv *invocation, args []string) int {
	fs := inv.flags()
	format := cliflag.AddFormat(fs, "table", "json")
	out := cliflag.AddOutput(fs)
	if code, done := inv.parseFlags(fs, args, format, nil); done {
		return code
	}
	if inv.dryRun {
		return exitOK
	}
	files, err := vectorFiles().Check()
	if err != nil {
		return inv.fail("%v", err)
	}
	rs, err := workflow.Verify(inv.registry, workflow.Options{Agree: agreeRun, AgreeKZG: agreeKZGRun})
	if err != nil {
		return inv.fail("%v", err)
	}
	return inv.writeResults(rs, format.Value, *out, func(w io.Writer, rs *results.File) error {
		if err := render.AgreementLine(w, rs.Agreement, inv.registry.CheckTexts()); err != nil {
			return err
		}
		return render.VectorFiles(w, files)
	})
}

// vectorFiles are the vector files verify checks before the libraries:
// those built into the binary (a test substitutes a copy with a file cut).
var vectorFiles = fixtures.Embedded
