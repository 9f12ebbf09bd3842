#!/usr/bin/env bash
# perf.sh measures what one memprof case costs against its floor, what
# `memprof instances --type all` and `go test ./...` take, and writes the
# tables into notes/performance.md (see scripts/perf/main.go):
#
#   scripts/perf.sh                       # the working tree (minutes: run it on a quiet machine)
#   scripts/perf.sh -rev HEAD~5 -rev .    # before and after, each step in turn
#   scripts/perf.sh -quick                # does the script work? (seconds; writes no file)
#
# PERF_REV="HEAD~5 ." is the same as the two -rev flags.
set -euo pipefail
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
exec go run ./scripts/perf "$@"
