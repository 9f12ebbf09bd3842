// Package workflow holds memprof's workflows: a selection of cases in, a
// results file out. Instances measures instance cases (and, if asked, times the
// operations of their types), Report measures what a design review shows
// (the instances and their operations), Throughput times operations, Budgeted
// measures what a budgets file checks, and Verify runs the agreement check
// alone. The memprof command is a thin layer over them: it parses flags
// into a Selection and Options, prints the events and the results, and maps
// the errors to exit codes. Nothing here prints, exits or reads flags or
// the environment.
//
// Every workflow takes the registry of cases it measures
// (*suites.Registry: suites/all.Registry for the built-in libraries, or
// one a test builds), a Selection and Options, and goes through these
// steps, each skipped when there is nothing for it to do:
//
//  1. Select. The Selection (types, libraries, representations, layouts,
//     scheme and operations; ParseTypes and ParseList read the comma lists
//     a command line gives) is matched against the registry's entries and
//     operations, which come in the one ordering of keys (results.Compare).
//     An entry or operation that cannot run here (vocab.Why) becomes an
//     Unavailable row. A selection that matches nothing is a *NoMatch;
//     one whose every match is unavailable is a *NothingMeasured, whose
//     DoesNotApply says, by the kinds of the reasons and never by their
//     text, whether the selection itself is wrong (a scalar Signature) or
//     a library or this build lacks what it names.
//
//  2. Refuse early. Before anything runs: options wrong in themselves are
//     a *UsageError; Options.Ready, the caller's last check (an output
//     that could not be written), may stop the workflow; and a run whose
//     estimated peak (EstimateMemory: each case's largest N, its sweep
//     included, times its entry's BytesHint or SizeHint, times the heap's
//     growth before a collection, for the cases measured at once) exceeds
//     the memory available (Options.MemoryAvailable, or the machine's) is
//     a *UsageError unless Options.Force; a run over LargeRun is
//     announced (MemoryEstimated) before it starts.
//
//  3. Measure the instances. Each selected entry is measured in a fresh
//     child process (memprof.MeasureInChild), Options.Jobs at a time,
//     at Options.N or the entry's DefaultN. The child is named the case by
//     its key's BenchName, the stable name it looks up in its registry
//     with Registry.LookupCase (see below). Options.ProfileDir keeps each
//     raw heap profile; Options.Sweep measures again at each N and fits
//     bytes = a + b*N. A child that fails or crashes is its row's Error,
//     with the end of its stderr; the other cases still run. An entry
//     with a FixedN (an LRU at a population its key names) is measured at
//     that N whatever Options.N says.
//
//  4. Check the agreement. Before any operation of a family is timed,
//     its libraries must agree: the family's check (suites.FamilyCheck,
//     from the registry, or Options.Agree's where it names the family)
//     runs when one of its operations is
//     selected; Verify runs them all. The record
//     keeps each family's check apart when there are several
//     (results.AgreementOf). When they disagree nothing is timed,
//     Results.Agreement says so and the error is the *agree.Disagreement.
//
//  5. Check each operation. Each available operation is prepared and run
//     once, and must compute the known result of fixtures/vectors.json, or
//     its Op.Want (suites.CheckOp) and reject invalid input (suites.CheckOpRejects).
//     One that does not is a row with its Error and is not timed.
//
//  6. Time the operations (memprof.MeasureThroughput). The operations of
//     one type and name, every library and representation, form a group
//     sampled alternately, so that drift of a noisy machine hits them
//     alike. Each becomes a throughput row, in the registry's order. The
//     operations of an isolation group (suites.Op.Isolate: c-kzg's at one
//     precompute level, as c-kzg holds one setup per process) are checked
//     and timed in a child process of their own, one group after another,
//     after the others (memprof.RunInChild; the child serves ChildTasks).
//     An operation of a cgo library (suites.Op.CHeap) also records the C
//     heap it keeps per call, measured on untimed calls.
//     Unless Options.AllPaths, the paths of the full matrix that the
//     trade-off summary does not need (suites.Op.FullMatrix) are left
//     out. Then, unless Options.NoSites, where each timed operation
//     allocates is profiled in child processes (the task sitesTask,
//     memprof.OpSitesTask; see sites.go): one for the operations timed
//     here, one per isolation group.
//
//  7. Return the results: a *results.File with the schema, the
//     environment (memprof.CurrentEnv with the registry's module
//     versions), the instance rows in the order of the registry, the
//     throughput rows, the unavailable rows, the agreement and the method.
//     The caller owns them; nothing is retained after the call.
//
// A workflow returns nil results and an error when it measured nothing:
// a usage error (IsUsage tells them from the others), a refusal, or an
// interruption (ctx done: the children are killed and the error wraps
// context.Cause). It returns results and an error when the instance rows
// are good but the operations could not be timed (the libraries disagreed,
// the agreement could not be checked, the timer failed). A case or an
// operation that failed is a row carrying its error, not an error of the
// workflow.
//
// What happens as it happens is told through Options.Progress as Events
// (a case started, the timing started, an operation failed), one call at
// a time.
//
// The program that runs a workflow measures in copies of itself, so it
// must serve the child's request before anything else, with the same
// registry:
//
//	func main() {
//		if memprof.ChildRequested() {
//			reg := all.Registry()
//			if err := memprof.ServeChild(reg.LookupCase, workflow.ChildTasks(reg)...); err != nil {
//				fmt.Fprintln(os.Stderr, err)
//				os.Exit(1)
//			}
//			os.Exit(0)
//		}
//		rs, err := workflow.Instances(ctx, all.Registry(), workflow.Selection{Types: []vocab.Type{vocab.Signature}}, workflow.Options{})
//		...
//	}
//
// A test binary does the same in its TestMain.
package workflow
