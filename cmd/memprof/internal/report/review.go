package report

import (
	"context"
	"io"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

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

	mw.Line("## Summary")
	mw.Line("")
	if len(types) == 0 {
		mw.Line("No case was measured: see the failures and the cases not offered below.")
		mw.Line("")
	} else {
		mw.Line("### Cheapest representation per type")
		mw.Line("")
		t := render.MarkdownTable{Header: []string{"type", "cheapest", "B/instance", "MB at 1M instances"}, Right: []bool{false, false, true, true}}
		for _, typ := range types {
			if stopped() {
				return stopErr()
			}
			c := cheapest(rs, vocab.Type(string(typ)))
			t.Rows = append(t.Rows, []string{string(typ), seriesNames(c), units.FormatFigure(c[0].BytesPerInstance), mb(c[0].BytesPerInstance)})
		}
		mw.Table(t)
		mw.Line("")

		mw.Line("### Memory at 1M instances")
		mw.Line("")
		t = render.MarkdownTable{Header: []string{"type", "representation", "B/instance", "MB at 1M instances", "vs cheapest", "GC scan MB at 1M instances", "GC CPU ms per cycle at 1M instances"},
			Right: []bool{false, false, true, true, true, true, true}}
		for _, typ := range types {
			if stopped() {
				return stopErr()
			}
			low := cheapest(rs, vocab.Type(string(typ)))[0].BytesPerInstance
			for _, r := range measured(rs, vocab.Type(string(typ))) {
				t.Rows = append(t.Rows, []string{string(typ), seriesLabel(r), units.FormatFigure(r.BytesPerInstance), mb(r.BytesPerInstance), plusMB(r.BytesPerInstance - low),
					perMillion("scan_bytes_per_instance", r), perMillion("gc_cpu_ns_per_instance", r)})
			}
		}
		mw.Table(t)
		mw.Line("")

		if stopped() {
			return stopErr()
		}
		writeTradeoffs(mw, rs, types)
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
		writeType(mw, rs, times, vocab.Type(string(typ)), ch, ms)
	}
	for _, f := range reg.Families() {
		if stopped() {
			return stopErr()
		}
		writeFamily(mw, rs, f)
	}

	if unmeasured := notMeasured(rs); len(unmeasured.Rows) > 0 {
		mw.Line("## Not measured")
		mw.Line("")
		mw.Line("Combinations that were asked for but that a library does not offer, or that this build cannot run, and cases that failed:")
		mw.Line("")
		mw.Table(unmeasured)
		mw.Line("")
	}

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

	mw.Line("## Method")
	mw.Line("")
	for _, sec := range memprof.Method() {
		for i, p := range sec.Paragraphs {
			if i == 0 {
				p = "**" + sec.Title + ".** " + p
			}
			mw.Line(p)
			mw.Line("")
		}
		if m, ok := methodScaled[sec.Title]; ok {
			mw.Line(m)
			mw.Line("")
		}
	}
	mw.Printf("N per case: %s.\n", nSummary(rs))
	mw.Line("")
	if rs.Method != "" && rs.Method != memprof.MethodText() {
		mw.Line("The results were measured by a memprof whose method text differs from the above: results.json records it (`method`).")
		mw.Line("")
	}
	if len(rs.Throughput) == 0 {
		mw.Line("**Throughput.** This results file has no throughput rows, so the tables show bytes per instance only and there are no trade-off charts.")
		mw.Line("")
	}
	if a := rs.Agreement; a != nil && len(a.Families) == 0 {
		checks := "byte-identical keys and signatures, each verifying the others'"
		if fams := render.LegacyFamilies(a.Libs); len(fams) > 1 || len(fams) == 1 && fams[0] != vocab.Families[0] {
			checks = render.AgreementChecks(a, reg.CheckTexts()) // not the first family's alone
		}
		writeAgreement(mw, "", a.Libs, a.OK, a.Cases, checks)
	} else if a != nil {
		for _, f := range a.Families {
			writeAgreement(mw, f.Family, f.Libs, f.OK, f.Cases, render.CheckTexts(reg.CheckTexts()).Of(f.Family))
		}
	}
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
