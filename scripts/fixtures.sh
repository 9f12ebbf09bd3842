#!/bin/sh
# fixtures.sh re-measures, with the current engine, every committed results
# file that tests and documents render, then re-renders what they feed:
#
#   fixtures/results/results.json   the review example and the golden files of
#                                   render, report and export (a short report run)
#   fixtures/docs/signature.json    README.md's and docs/'s tables
#   fixtures/docs/kzg-objects.json
#
# It measures for minutes: run it from anywhere in the module, with `nice`
# on a shared machine, and review the diff. TestResultsFixtures refuses a
# file whose figures the current engine would not write.
set -eu
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/memprof" ./cmd/memprof
"$tmp/memprof" report --type SecretKey,PublicKey,Signature,G1,G2 -n 2000 --samples 3 --min-sample 20ms --out "$tmp/review"
cp "$tmp/review/results.json" fixtures/results/results.json
"$tmp/memprof" instances --type Signature --format json -o fixtures/docs/signature.json
"$tmp/memprof" instances --type Blob,Commitment,Proof -n 1000 --format json -o fixtures/docs/kzg-objects.json
go test ./cmd/memprof/internal/render ./cmd/memprof/internal/report ./export -count 1 -update
go test ./cmd/memprof -run TestDocBlocks -count 1 -update
