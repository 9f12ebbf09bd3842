package main

import (
	"context"
	"io"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/model"
	workflow "github.com/memprof/memprof/run"
)

var verifyCommand = &command{
	Name:      "verify",
	UsageLine: "verify [--format table|json] [-o FILE]",
	Short:     "check that the BLS libraries compute the same keys and signatures, and the KZG libraries the same commitments, proofs and cells",
	Long: `Verify runs the agreement checks that precede every throughput measurement.

BLS: for the 20 cases of fixtures/vectors.json (32-byte IKM, messages of varied
length, DST BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_), every library must
derive the same secret key (IETF KeyGen), public key and signature byte for
byte, verify every library's bytes and reject them for another message, and
round-trip the public key and the signature through each of its
representations to the same encodings. In a build without cgo, blst is
reported unavailable and gnark-crypto and circl are checked against the file.

KZG: for the 8 deterministic blobs of fixtures/kzg-vectors.json (made from the
file's seed), c-kzg and go-eth-kzg must compute the file's commitment, blob
proof, cells (the file keeps their SHA-256) and cell proofs byte for byte,
verify each other's blob proofs and cell proofs, reject the proofs of another
blob, and recover every blob's cells from half of them. In a build without
cgo, c-kzg is reported unavailable and go-eth-kzg is checked against the file.

Every other family (secp256k1, bn254, ml-kem, ml-dsa, slh-dsa) with suites in
this build has its own check, run here too. When more than one family is
checked, the table prints one line per family, and the results' agreement
record keeps each family's check under "families".

Exit status is 0 when the libraries agree, 1 when they do not (the error names
the case or blob, the object, the libraries and the first differing byte), 2
for a usage error.`,
	Run: runVerify,
}

func runVerify(ctx context.Context, inv *invocation, args []string) int {
	fs := inv.flags()
	format := addFormat(fs, "table", "json")
	out := addOutput(fs)
	if code, done := inv.parseFlags(fs, args, format, nil); done {
		return code
	}
	rs, err := workflow.Verify(inv.registry, workflow.Options{Agree: agreeRun, AgreeKZG: agreeKZGRun})
	if err != nil {
		return inv.fail("%v", err)
	}
	return inv.writeResults(rs, format.value, *out, func(w io.Writer, rs *model.Results) error { return render.AgreementLine(w, rs.Agreement) })
}
