package report

import (
	"context"
	"io"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// writeReadme writes the review of rs to w as Markdown, naming the
// charts ch and the files of the review. It stops between sections and
// between types when ctx is done, returning its cause, or when a write
// fails.
func writeReadme(ctx context.Context, w io.Writer, rs *results.File, opts Options, ch charts, files []string) error {
	mw := render.NewMarkdownWriter(w)
	// stopped reports whether to end the README here: ctx is done (an
	// interrupt) or a write was refused. It is asked between sections
	// and between the types of a section, so that an interrupt ends the
	// README within one type's work, not after rendering all of them.
	stopped := func() bool { return ctx.Err() != nil || mw.Err() != nil }
	stopErr := func() error {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return mw.Err()
	}
	types := render.TypesMeasured(rs)

	reg := opts.registry()
	keys := render.KeyOps(reg.KeyOps())
	mw.Printf("# %s representations: memory and speed\n", reviewSubject(rs, reg.Families()))
	mw.Line("")
	src := "a fresh run"
	if opts.Source != "" {
		src = "`" + opts.Source + "`"
	}
	ms := indexMachines(opts.Machines)
	times := newOpTimes(rs)
	if ms.several() {
		mw.Printf("Written by `memprof report` from %s (%s).\n", ms.sources(), rs.Schema)
	} else {
		mw.Printf("Written by `memprof report` from %s (%s). %s\n", src, rs.Schema, envLine(rs.Env))
	}
	mw.Line("")

	if writeSummary(mw, rs, types, keys, stopped) {
		return stopErr()
	}

	ms.write(mw)

	if ch.bytes != "" {
		mw.Line("## Charts")
		mw.Line("")
		mw.Printf("![Bytes per instance by type, library and representation](%s)\n", ch.bytes)
		mw.Line("")
		if ch.gc != "" {
			mw.Printf("![Bytes per instance against the GC's CPU time per instance per cycle: the pointer-free forms sit near 0](%s)\n", ch.gc)
			mw.Line("")
		}
	}

	for _, typ := range types {
		if stopped() {
			return stopErr()
		}
		writeType(mw, rs, times, vocab.Type(string(typ)), ch, ms, keys)
	}
	for _, f := range reg.Families() {
		if stopped() {
			return stopErr()
		}
		writeFamily(mw, rs, f, keys)
	}

	writeNotMeasured(mw, rs)

	if stopped() {
		return stopErr()
	}
	mw.Line("## Allocation sites")
	mw.Line("")
	mw.Line("Where each instance's bytes are allocated, per instance:")
	mw.Line("")
	render.SitesMarkdownTable(mw, rs)
	mw.Line("")

	mw.Line("## Environment")
	mw.Line("")
	if ms.several() {
		ms.writeEnvs(mw)
	} else {
		writeEnv(mw, rs.Env)
		mw.Line("")
	}

	writeMethod(mw, rs, reg)
	for _, n := range opts.Notes {
		mw.Printf("**Note.** %s\n", strings.TrimSpace(n))
		mw.Line("")
	}

	mw.Line("## Files")
	mw.Line("")
	for _, f := range files {
		mw.Printf("- [`%s`](%s): %s\n", f, f, describeFile(f))
	}
	return mw.Err()
}

func describeFile(name string) string {
	switch {
	case name == BytesChart:
		return "bytes per instance, one group per type, one bar per library and representation"
	case name == GCChart:
		return "bytes per instance against the GC's CPU time per instance per cycle, one point per case"
	case strings.HasPrefix(name, tradeoffStart):
		return "bytes per instance against the time of each use, one panel per operation, the Pareto-optimal representations filled"
	case name == ResultsJSON:
		return "the results, " + results.Schema + ", with the trade-off tables (`tradeoff`, `pareto: true` on the Pareto-optimal rows; render again with `memprof report --from " + ResultsJSON + "`)"
	case name == ResultsCSV:
		return "one row per measurement, for spreadsheets"
	case name == ResultsBench:
		return "Go benchmark format, for `benchstat old.bench new.bench`"
	case isMachineFile(name):
		return "the results of another machine of this review, " + results.Schema
	}
	return ""
}
