package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/cliflag"
	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
	"github.com/memprof/memprof/workflow"
)

var throughputCommand = &command{
	Name:      "throughput",
	UsageLine: "throughput --type T [--lib L,...] [--repr R,...] [--scheme min-pk|all] [--op OP,...] [--samples N] [--min-sample D] [--paths default|all] [--sites=false] [--format table|json|markdown|csv|bench] [--wide | --columns COL,...] [--style plain|box] [-o FILE] [--machine NAME] [--commit SHA]",
	Short:     "time the operations each representation makes cheap or expensive",
	// Built when help is printed: the method's paragraphs, wrapped, are
	// work every process (a measuring child too) would do at start.
	LongFunc: func() string {
		return `Throughput times encoding, decoding (with and without the subgroup check),
conversion to affine (one point and 1,000 at once), aggregation of 128
signatures or public keys (from affine inputs and in Jacobian form), signing,
verification and fast aggregate verification, batch verification (blst's
MultipleAggregateVerify and one PairingCtx, 1 to 128 signatures), pairing
checks with G2 points plain and prepared (gnark's PrecomputeLines) and G1
multi-scalar multiplication (64 to 16,384 points), for every library and
representation that offers them. An operation a library lacks is a row that
says so. The representation of a row is the one the data is in when the
operation starts. Signatures are min-pk (keys in G1, signatures in G2, DST
BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_NUL_).

Before any figure is printed, memprof checks that the libraries agree (as
'memprof verify' does) and that every operation computes the known result of
fixtures/vectors.json and rejects invalid input; a failure exits 1.

Each operation is timed from every representation its library keeps the
data in, the conversions a program must make first included in the one timed
call (its path: compressed -> Uncompress, SigValidate -> Verify). By default
those of compress, aggregate and verify; --paths all times every operation
from every representation. An operation whose input already is its output
(compress from compressed) does not apply.

` + methodHelp(memprof.MethodThroughput, memprof.MethodOpSites) + `

Exit status is 0 when every operation was timed, 1 when the libraries disagree
or an operation failed, 2 for a usage error.

` + nothingMeasuredHelp + `

` + flagsHelp
	},
	Run: runThroughput,
	Examples: []example{
		{Line: "memprof throughput --type Signature", What: "the time of every signature operation from every representation", Measures: true},
		{Line: "memprof throughput --type Signature --lib blst,gnark --op verify,aggregate --samples 5", What: "two operations of two libraries, five samples each", Measures: true},
	},
}

func runThroughput(ctx context.Context, inv *invocation, args []string) int {
	fs := inv.flags()
	opTypes := inv.registry.OpTypes()
	types := fs.String("type", "", "time the operations of these `types` (comma-separated): "+vocab.Join(opTypes)+"; all = the BLS12-381 ones, a family ("+vocab.Join(vocab.Families)+") = the family's, everything = every one")
	libs := fs.String("lib", "", "only these `libraries` (comma-separated): "+vocab.Join(vocab.Libs))
	reprs := fs.String("repr", "", "only these `representations` (comma-separated): "+vocab.Join(vocab.Reprs))
	scheme := fs.String("scheme", "min-pk", "signature `schemes` (comma-separated, or all): operations are timed in min-pk (keys in G1, signatures in G2), so the list must hold it")
	var to cliflag.Timing
	to.Add(fs, "", true)
	format := cliflag.AddFormat(fs, "table", "json", "markdown", "csv", "bench")
	out := cliflag.AddOutput(fs)
	var prov cliflag.Provenance
	prov.Add(fs)
	var tf cliflag.Table
	tf.Add(fs)
	if code, done := inv.parseFlags(fs, args, format, func() []cliflag.Inert { return []cliflag.Inert{tf.Inert(format.Value)} }); done {
		return code
	}
	tableOpts, err := tf.Options(render.TerminalWidth(tableWriter(inv, *out)), inv.registry.CheckTexts(), "throughput", func(c results.Column) bool { return c.Throughput != nil })
	if err != nil {
		return inv.usageError("%v", err)
	}
	if *types == "" {
		return inv.usageError("--type is required: types with operations are %s, or all (the BLS12-381 ones), everything, or a family: %s", vocab.Join(opTypes), vocab.Join(vocab.Families))
	}
	var sel workflow.Selection
	// all (the BLS object types), a family and everything select the
	// types of the group that have operations.
	if sel.Types, err = workflow.ParseOpTypes(*types, opTypes); err != nil {
		return inv.usageError("%v", vocab.Suggest(err, *types, workflow.TypeNames()))
	}
	if sel.Libs, err = workflow.ParseList("lib", *libs, vocab.Libs); err != nil {
		return inv.usageError("%v", vocab.Suggest(err, *libs, vocab.Strings(vocab.Libs)))
	}
	if sel.Reprs, err = workflow.ParseList("repr", *reprs, vocab.Reprs); err != nil {
		return inv.usageError("%v", vocab.Suggest(err, *reprs, vocab.Strings(vocab.Reprs)))
	}
	if sel.Schemes, err = workflow.ParseList("scheme", *scheme, vocab.Schemes); err != nil {
		return inv.usageError("%v", vocab.Suggest(err, *scheme, vocab.Strings(vocab.Schemes)))
	}
	if !slices.Contains(sel.Schemes, vocab.MinPk) {
		return inv.usageError("--scheme %s: operations are timed in min-pk only (keys in G1, signatures in G2); give min-pk, or all", *scheme)
	}
	var opts workflow.Options
	if sel.Ops, err = timing(&to, &opts); err != nil {
		return inv.usageError("%v", err)
	}
	opts.Ready = inv.ready(func() error { return checkOutputPath(*out) })
	opts.Progress = (&progress{inv: inv}).event
	prov.Options(&opts)
	rs, err := workflow.Throughput(ctx, inv.registry, sel, opts)
	if rs == nil {
		sf := cliflag.Selection{Types: *types, Libs: *libs, Reprs: *reprs, Scheme: "min-pk"}
		return inv.refused(err, strings.TrimSpace(sf.Describe()+" "+to.OpFlag()), func(*workflow.NoMatch) string {
			return fmt.Sprintf("no operation matches --type %s --lib %s --repr %s --op %s", *types, cliflag.OrAll(*libs), cliflag.OrAll(*reprs), cliflag.OrAll(to.Ops))
		})
	}
	code := exitOK
	if err != nil {
		code = inv.throughputFailed(err)
		if disagree(err) {
			return code // nothing is printed after a disagreement
		}
	}
	table := func(w io.Writer, rs *results.File) error { return render.ThroughputTableFit(w, rs, tableOpts) }
	if code := inv.writeResults(rs, format.Value, *out, table); code != exitOK {
		return code
	}
	if rs.Failed() {
		code = exitFailure
	}
	return code
}
