// Package export writes memprof results in the formats of the tools teams
// already run on benchmarks: the Go benchmark format that benchstat reads
// (Bench, one line per sample), github-action-benchmark's
// customSmallerIsBetter JSON (GitHubActionBenchmark) and Bencher's Metric
// Format (BencherMetricFormat), so that their history charts and alerts follow bytes
// and allocations per instance as well as time per operation.
//
// It reads only a results.File (best loaded with results.Reader,
// which validates it), writes only to the io.Writer it is given and keeps
// nothing: "measure once in CI, export many times" always works. Every
// format holds the measured rows only, in the one ordering of keys
// (results.Compare); a row that failed to measure has no figure to export,
// and Failed lists those rows so that a caller can say so.
package export
