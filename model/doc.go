// Package model is memprof's shared vocabulary and its results file: the
// words every other package uses, and the one format measurements are
// written in and read back from.
//
//   - Typed names (Type, Lib, Repr, Layout, Scheme, Op) with the lists that
//     give them their order (Types, Libs, ...), and Key: the one identity of
//     a case, with one String for people, one BenchName for Go benchmark
//     names and child processes, and one ordering (Compare).
//   - Family: the families of types (bls12-381, kzg, secp256k1, bn254,
//     ml-kem, ml-dsa, slh-dsa), from one table (family.go) that gives each
//     type its family (Type.Family) and each family its libraries and
//     operations; Types, Libs and Ops are its union.
//   - Why and its Kind: why a combination was not measured, decided by
//     kind, never by the text of the reason.
//   - The memprof.results/v1 structures (Results, Result, ThroughputRow,
//     ...), Measurement and Timing (the engine's domain-free numbers that
//     the rows embed), and ResultsReader: a bounded reader that validates
//     at load, as pprof's profile.CheckValid does, and reads fields renamed
//     since under their old names.
//   - SummarizeSamples: the one definition of a timing's median and
//     quartiles.
//   - Columns: the one specification of the rows' columns (JSON name,
//     header label, unit, how to read a cell from each kind of row, which
//     formats show it), which the terminal table, the Markdown tables and
//     the CSV file all read; LookupColumn finds one by name or label.
//   - Figures, grown from Columns: the one list of the measured figures
//     (name, unit, how obtained, range, resolution, samples, budget key,
//     compare metric, export names), which the results reader validates
//     by, the tables show by, and the gate, compare and export all draw
//     on; a figure a file lacks is unknown, never 0. figures.go says how
//     to add one: a field and one entry.
//   - Unit and its formatters (FormatFigure, FormatBytes, FormatNs, ...):
//     every number memprof prints, written through
//     golang.org/x/perf/benchunit.
//
// It imports nothing of memprof but the small internal/readlimit helper:
// every other package may depend on it.
package model
