// Package results is memprof's results file, memprof.results/v1: the one
// format measurements are written in and read back from, the contract
// between measuring and everything after it (tables, the review, budgets,
// compare, exports).
//
//   - File, Row (an instance case's row), ThroughputRow, Unavailable and
//     Agreement: the file's structures, which embed the engine's
//     domain-free numbers (measure.Measurement, measure.Timing).
//   - Key: the one identity of a case, with one String for people, one
//     BenchName for Go benchmark names and child processes, and one
//     ordering (Compare), over the names of package vocab.
//   - Reader: a bounded, streaming reader that validates at load, as
//     pprof's profile.CheckValid does, and reads fields renamed since
//     under their old names.
//   - Columns: the one specification of the rows' columns (JSON name,
//     header label, unit, how to read a cell from each kind of row, which
//     formats show it), which the terminal table, the Markdown tables and
//     the CSV file all read; LookupColumn finds one by name or label.
//   - Figures, grown from Columns: the one list of the measured figures
//     (name, unit, how obtained, range, resolution, samples, budget key,
//     compare metric, export names), which the reader validates by, the
//     tables show by, and the gate, compare and export all draw on; a
//     figure a file lacks is unknown, never 0. figures.go says how to add
//     one: a field and one entry.
//   - Tradeoff: a type's representations against the operations that use
//     them, with the Pareto front marked.
//
// It imports units, stats, measure and vocab, and nothing else of
// memprof but the small internal/readlimit helper.
package results
