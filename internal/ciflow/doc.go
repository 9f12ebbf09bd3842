// Package ciflow runs the run: steps of a GitHub Actions workflow here,
// where no container engine runs: the jobs' steps in order, with the
// ${{ }} and if: forms the workflow uses evaluated (Context) and any other
// refused, the actions it uses replaced by stand-ins that do what the
// steps after them rely on (an artifact store, a dashboard store that
// applies github-action-benchmark's alert rule), and what GitHub provides
// stood in for: GITHUB_SHA, RUNNER_TEMP, GITHUB_OUTPUT,
// GITHUB_STEP_SUMMARY and a gh command that serves the artifacts of a
// previous run.
//
// It checks memprof's own .github/workflows/memprof.yml (go test
// ./internal/ciflow -ciflow.run, a .ci/run step); it knows only what that
// file needs.
package ciflow
