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
//   - Figures: the figure registry, the one list of the measured figures,
//     one entry each (registry.go): the figure's description
//     (measure.Figure: name, unit, how obtained, resolution, samples,
//     budget key and judgement, compare metric, export names) and how its
//     row carries it. The reader validates by it, the tables show by it,
//     and the gate, compare and export all draw on it; a figure a file
//     lacks is unknown, never 0. figures.go says how to add one: a field
//     and one entry.
//   - Columns: the one specification of the rows' columns (JSON name,
//     header label, unit, how to read a cell from each kind of row, which
//     formats show it), laid out from Figures and the columns that are not
//     figures (keys, words, lists), which the terminal table, the Markdown
//     tables and the CSV file all read; LookupColumn finds one by name or
//     label. Labels and formats are presentation but stay here: the
//     families' review sections under suites/ format their cells through
//     them.
//   - Tradeoff: a type's representations against the operations that use
//     them, with the Pareto front marked.
//
// It imports units, stats, measure and vocab, and nothing else of
// memprof but the small internal/readlimit helper.
package results
