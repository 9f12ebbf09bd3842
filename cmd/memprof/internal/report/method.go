package report

import (
	"sort"
	"strconv"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// methodScaled says how the summary scales the engine's per-instance
// figures, after the method's section of that title.
var methodScaled = map[string]string{
	memprof.MethodBytes: "**Memory at 1M instances** is bytes per instance × 10⁶, in MB of 10⁶ bytes: the Go heap the instances keep alive, without the slice or map that holds them (a pointer layout adds 8 B per instance there).",
	memprof.MethodGC:    "**GC scan MB at 1M instances** and **GC CPU ms per cycle at 1M instances** are the per-instance figures × 10⁶; ~0 is a figure within its resolution (in results.json). Stacks, globals and other goroutines' garbage are not in them; see docs/gc.md.",
}

// writeAgreement writes the paragraph of one agreement check, of family
// when it is not "" (a record of several families).
func writeAgreement(mw *render.MarkdownWriter, family vocab.Family, libs []vocab.Lib, ok bool, cases int, checks string) {
	state := "agreed"
	if !ok {
		state = "did NOT agree"
	}
	title := "Agreement"
	if family != "" {
		title += " (" + string(family) + ")"
	}
	mw.Printf("**%s.** Before timing, %s %s on %d deterministic cases (%s).\n", title, vocab.Join(libs), state, cases, checks)
	mw.Line("")
}

// nSummary says which N the cases were measured with.
func nSummary(rs *results.File) string {
	var ns []int
	seen := map[int]bool{}
	for _, r := range rs.Instances {
		if r.Error == "" && !seen[r.N] {
			seen[r.N] = true
			ns = append(ns, r.N)
		}
	}
	sort.Ints(ns)
	switch len(ns) {
	case 0:
		return "no case was measured"
	case 1:
		return "N = " + strconv.Itoa(ns[0]) + " instances for every case"
	}
	var s []string
	for _, n := range ns[:min(len(ns), maxOpColumns)] {
		s = append(s, strconv.Itoa(n))
	}
	if more := len(ns) - maxOpColumns; more > 0 {
		s = append(s, "and "+strconv.Itoa(more)+" more")
	}
	return "N varies by case (" + strings.Join(s, ", ") + "); see the N column of results.csv"
}

// writeMethod writes the review's method section: the engine's method
// (memprof.Method) with how the summary scales it, the N of the cases,
// and the agreement checks of rs.
func writeMethod(mw *render.MarkdownWriter, rs *results.File, reg *suites.Registry) {
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
}
