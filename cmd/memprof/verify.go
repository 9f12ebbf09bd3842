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
	Short:     "check that blst, gnark-crypto and circl compute the same keys and signatures",
	Long: `Verify runs the agreement check that precedes every throughput measurement:
for the 20 cases of fixtures/vectors.json (32-byte IKM, messages of varied
length, DST BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_), every library must
derive the same secret key (IETF KeyGen), public key and signature byte for
byte, verify every library's bytes and reject them for another message, and
round-trip the public key and the signature through each of its
representations to the same encodings. In a build without cgo, blst is
reported unavailable and gnark-crypto and circl are checked against the file.

Exit status is 0 when the libraries agree, 1 when they do not (the error names
the case, the libraries and the differing bytes), 2 for a usage error.`,
	Run: runVerify,
}

func runVerify(ctx context.Context, inv *invocation, args []string) int {
	fs := inv.flags()
	format := addFormat(fs, "table", "json")
	out := addOutput(fs)
	if code, done := inv.parseFlags(fs, args, format, nil); done {
		return code
	}
	rs, err := workflow.Verify(inv.registry, workflow.Options{Agree: agreeRun})
	if err != nil {
		return inv.fail("%v", err)
	}
	return inv.writeResults(rs, format.value, *out, func(w io.Writer, rs *model.Results) error { return render.AgreementLine(w, rs.Agreement) })
}
