#!/usr/bin/env bash
# The memprof steps of .github/workflows/memprof.yml: the workflow calls
# this script, and .ci/run runs it here (.ci/gate-test), so that what CI
# runs is what is tested. docs/ci.md explains every step.
#
#   scripts/ci-gate.sh measure OUT             measure what the budgets select, into OUT
#   scripts/ci-gate.sh budgets RESULTS         check the budgets: check.md, exit 1 on a failure
#   scripts/ci-gate.sh export RESULTS          the dashboards' files
#   scripts/ci-gate.sh pull-request BASE HEAD  compare and check, write comment.md, then
#                                              fail on a regression or a budget, naming it
#   scripts/ci-gate.sh review RESULTS...       one review of every runner's results, in review/
#
# Its knobs are the environment (the workflow's env:):
#   MEMPROF             the memprof binary (default: $RUNNER_TEMP/memprof)
#   MEMPROF_BUDGETS     the budgets file: what to measure and gate
#   MEMPROF_OPS, MEMPROF_SAMPLES, MEMPROF_MIN_SAMPLE
#                       the operations timed, the samples of each, their minimum time
#   MEMPROF_MACHINE, MEMPROF_COMMIT
#                       the machine and commit the results name (else memprof's defaults)
#   BASE_URL, BASE_SHA  the base's run and commit, for compare (optional)
#   GITHUB_STEP_SUMMARY, GITHUB_OUTPUT
#                       appended to when set
# It writes its files (check.md, compare.md, comment.md, the exports,
# review/) in the working directory.
set -euo pipefail

usage() {
  echo 'usage:' >&2
  sed -n '6,11p' "$0" | cut -c2- >&2
  exit 2
}
case "${1:-} $#" in
"measure 2" | "budgets 2" | "export 2" | "pull-request 3") ;;
"review "*) [ "$#" -ge 2 ] || usage ;;
*) usage ;;
esac

memprof=${MEMPROF:-${RUNNER_TEMP:?neither MEMPROF nor RUNNER_TEMP is set}/memprof}
budgets=${MEMPROF_BUDGETS:?MEMPROF_BUDGETS is not set}
# A runner without cgo skips the budgets whose every case needs cgo, and
# says so (--skip-cgo); anywhere else such a budget is an error.
skip=()
if [ "${CGO_ENABLED:-}" = 0 ]; then skip=(--skip-cgo); fi

# summary appends its files to the job's summary, if there is one.
summary() {
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then cat "$@" >> "$GITHUB_STEP_SUMMARY"; fi
}

# output sets a step output, if there are any.
output() {
  if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "$1" >> "$GITHUB_OUTPUT"; fi
}

measure() {
  local id=()
  if [ -n "${MEMPROF_MACHINE:-}" ]; then id+=(--machine "$MEMPROF_MACHINE"); fi
  if [ -n "${MEMPROF_COMMIT:-}" ]; then id+=(--commit "$MEMPROF_COMMIT"); fi
  "$memprof" instances --budgets "$budgets" "${skip[@]}" \
    --with-throughput --op "${MEMPROF_OPS:?}" --samples "${MEMPROF_SAMPLES:?}" --min-sample "${MEMPROF_MIN_SAMPLE:?}" \
    --format json "${id[@]}" -o "$1"
}

budgets() {
  local code=0
  "$memprof" check --budgets "$budgets" --results "$1" "${skip[@]}" --format markdown -o check.md || code=$?
  summary check.md
  return "$code"
}

export_dashboards() {
  "$memprof" export --to github-action-benchmark --only memory "$1" -o memory.json
  "$memprof" export --to github-action-benchmark --only time "$1" -o time.json
  "$memprof" export --to bencher "$1" -o bencher.json
  "$memprof" export --to benchfmt "$1" -o results.bench
}

pull_request() {
  local base=$1 head=$2 compare=0 check=0 link=()
  if [ -n "${BASE_URL:-}" ]; then link+=(--base-url "$BASE_URL"); fi
  if [ -n "${BASE_SHA:-}" ]; then link+=(--base-commit "$BASE_SHA"); fi
  "$memprof" compare "$base" "$head" --format markdown "${link[@]}" --max-base-age 7d -o compare.md || compare=$?
  output "compare=$compare"
  "$memprof" check --budgets "$budgets" --results "$head" "${skip[@]}" --format markdown -o check.md || check=$?
  output "check=$check"

  for f in compare.md check.md; do
    if [ -s "$f" ]; then cat "$f"; else echo "memprof wrote no $f: see the job's log."; fi
    printf '\n---\n\n'
  done > comment.md
  echo '<!-- memprof -->' >> comment.md
  summary comment.md

  echo "compare exited $compare, check $check (0 ok, 1 regression or budget, 2 bad input)"
  if [ "$compare" != 0 ]; then
    "$memprof" compare "$base" "$head" | grep -E '^(result|FAIL) ' || true
  fi
  if [ "$check" != 0 ]; then
    "$memprof" check --budgets "$budgets" --results "$head" "${skip[@]}" | grep -v '^PASS ' || true
  fi
  test "$compare" = 0 && test "$check" = 0
}

review() {
  local from=()
  for f in "$@"; do from+=(--from "$f"); done
  "$memprof" report "${from[@]}" --out review
  summary review/README.md
}

case $1 in
measure) measure "$2" ;;
budgets) budgets "$2" ;;
export) export_dashboards "$2" ;;
pull-request) pull_request "$2" "$3" ;;
review) shift; review "$@" ;;
esac
