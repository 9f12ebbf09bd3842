// Package gate turns memprof results into CI verdicts: Check holds them
// against a budgets file, Compare judges two results files for
// regressions, and Update re-bases a budgets file on a check. It reads
// only a results file (a results.File, best loaded with
// results.Reader, which validates it) and a budgets file: it
// measures nothing, imports neither the engine nor the suites, prints
// nothing and exits nothing, so "measure once in CI, gate many times"
// always works. Every verdict fails closed: what cannot be checked is an
// Error, never a pass.
//
// # Budgets file
//
// A budgets file (YAML, version 1; the memprof command reads
// memprof.budgets.yaml by default) is a list of budgets, each a selector,
// one or more limits, and an owner and a reason for the people a failure
// concerns:
//
//	version: 1
//	budgets:
//	  - select: {type: Signature, lib: [blst, gnark], repr: affine}
//	    max_bytes_per_instance: 192B
//	    max_allocs_per_instance: 1
//	    owner: crypto-team
//	    reason: signatures cached per attestation
//	  - select: {type: Signature, lib: blst, op: verify}
//	    max_ns_per_op: 2ms
//
// A Selector names accepted values of a case's key (type, lib, repr,
// layout, scheme, op, param; an omitted key accepts every value, but
// layout the default layouts and scheme min-pk, as a run measures them),
// checked against vocab's names and canonicalised; results.Selector
// decides what it selects, as it does for show and the measuring
// workflow. The limits are the Metrics:
// the figures of results.Figures that have a budget key
// (max_bytes_per_instance, max_scan_bytes_per_instance, max_ns_per_op,
// ...), each judged as its entry says (measure.Judge: exactly, to its
// resolution, or over its samples by the noise rule). A figure of
// instance rows bounds instances, one of operation rows operations (an
// instance limit does not go with an op selector, nor an operation limit
// with a layout or scheme selector). The GC mark time is a time of
// instances: judged like ns/op (SampleFigure), read from instance rows. A
// budget on a figure a row lacks (a file older than it) is an Error.
// With CheckOptions.Registry a budget selects every case the registry
// has: one the results lack is an Error (a Skip with optional: true).
// What one call allocates is checked exactly; where it depends on the
// cores (a row's allocs_depend_on_gomaxprocs) the budget names the
// GOMAXPROCS it holds for (gomaxprocs: N), and results measured at
// another are an Error. Sizes and
// durations take units (units.ParseSize, units.ParseDuration), within MaxSize and
// MaxDuration; a file is one YAML document. Parse reports every
// problem of a file at once, each as file:line (PosError), wrapping
// ErrInvalid; ReadFile bounds the read (DefaultMaxBytes, ErrTooLarge).
// A File keeps its source so that Update can rewrite the values in
// place.
//
// A budget may end: with expires (a day, YYYY-MM-DD) and issue (a URL)
// it holds through the end of that day (UTC) and then fails whatever is
// measured, "budget expired on 2027-03-31 (owner, issue)", so that a
// temporary exception cannot become permanent; Update never extends it.
// A time budget may have a noise floor, min_delta (a percentage of the
// limit or a duration), within which an excess warns instead of failing.
// See waiver.go.
//
// # Check
//
// Check applies each limit to every case its selector matches and gives
// an Outcome per limit and case: Pass, Skip (a case the budget names by
// library is unavailable in this build while its other cases were
// checked), Warn, Fail, or Error (the case failed to measure, every
// selected case is unavailable, there is no time to check, or the
// libraries disagreed). A budget that matches no case at all is a
// Problem of the Report. Report.OK is false on any Problem, Fail or
// Error. Update returns the file's source with each limit set to the
// largest measurement among its cases (a time multiplied by a headroom),
// refusing when the check has problems or errors.
//
// # Compare
//
// Compare pairs base and head by results.Key and judges bytes and
// allocations per instance exactly (bytes beyond ToleranceBytes, any
// extra allocation is a regression) and times by a Mann-Whitney U test
// (golang.org/x/perf/benchmath) over the raw samples at Alpha, beyond a
// relative Tolerance. A case missing from head fails unless
// AllowMissing; results from different environments (EnvDiffs) are
// refused with an *EnvMismatchError unless AllowEnvMismatch; input that
// cannot be compared wraps ErrBadInput.
//
// # Noise rules
//
// Memory figures are exact, with one exception: the off-heap figure is
// read in the runtime's 256 KiB chunks, so an off-heap excess within the
// row's resolution (offheap_resolution_bytes_per_instance) warns. A time
// is SampleFigure's median and quartiles of its samples, the one figure
// check and compare both read. A time budget fails only when the median
// and the whole interquartile range (q1) exceed it; a median above it
// with q1 at or below it warns. A time comparison with fewer than
// MinSamples samples on a side, or whose smallest possible p-value is not
// below Alpha, fails: it could never detect a regression. A time from a
// results file whose agreement check failed is never trusted.
package gate
