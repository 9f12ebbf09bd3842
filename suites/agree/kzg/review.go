package kzg

import (
	"fmt"
	"slices"
	"strings"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

// The KZG section of the review: the two trade-offs a client team weighs
// when it picks a KZG library and its setting. It reads only the results:
// the KZG instance rows (contexts, objects, the PeerDAS node) and the KZG
// operation rows, matched by library and parameter.

// kzgDetailOps are the operations the contexts table shows beside each
// context, the first the one precomputation speeds up.
var kzgDetailOps = []vocab.Op{vocab.ComputeCellsAndProofs, vocab.RecoverCellsAndProofs, vocab.BlobToCommitment, vocab.VerifyBlobProof}

// Family is KZG as a value: its section of the review.
func Family() suites.Family {
	return suites.Family{Family: vocab.KZG, Subject: "BLS12-381", Review: &suites.ReviewSection{
		Title:     "KZG: cgo against pure Go, memory against speed",
		Paragraph: "c-kzg (`ckzg`) is C behind cgo and keeps its setup in C memory; go-eth-kzg (`gokzg`) is pure Go on gnark-crypto. A c-kzg context's precompute level buys faster cell proofs with fixed-base MSM tables. The figures below pair each context with the operations timed on it (c-kzg's at each level in a process of their own).",
		Blocks:    reviewBlocks,
	}}
}

// Suite gives the registry the KZG family's value and its agreement
// check; the libraries' suites give their parts (Suite.KZGAgree).
func Suite() suites.Suite {
	return suites.Suite{Name: "kzg family", Families: []suites.Family{Family()},
		Checks: []suites.FamilyCheck{{Family: vocab.KZG, RunOwn: Run,
			Checks: "KZG commitments, proofs, cells and cell proofs byte for byte; each verifies the others'; recovery from half the cells", Help: help}}}
}

// help is the check's paragraph in verify's help (suites.FamilyCheck.Help).
const help = `KZG: for the 8 deterministic blobs of fixtures/kzg-vectors.json (made from the
file's seed), c-kzg and go-eth-kzg must compute the file's commitment, blob
proof, cells (the file keeps their SHA-256) and cell proofs byte for byte,
verify each other's blob proofs and cell proofs, reject the proofs of another
blob, and recover every blob's cells from half of them; then verify
go-ethereum's point evaluation vectors (fixtures/kzg-precompile) through the
precompile's checks, and refuse them with the claimed value changed. In a
build without cgo, c-kzg is reported unavailable and go-eth-kzg is checked
against the files.`

// reviewBlocks are the blocks of the KZG section.
func reviewBlocks(rs *results.File) []suites.ReviewBlock {
	kz := newKZGTimes(rs)
	return slices.Concat(kzgContexts(rs, kz), kzgOps(rs, kz), kzgObjects(rs), kzgPeerDAS(rs))
}

// maxOpColumns is how many libraries and settings the operations tables
// show, as many as the review's tables of a type show operations.
const maxOpColumns = 12

// kzgTimes finds the operation rows of the KZG section by library,
// parameter, operation and batch (0: any batch): the first row timed
// without error, and the first row at all.
type kzgTimes struct {
	ok, any map[kzgOpKey]*results.ThroughputRow
}

type kzgOpKey struct {
	lib   vocab.Lib
	param results.Param
	op    vocab.Op
	batch int
}

func newKZGTimes(rs *results.File) *kzgTimes {
	kz := &kzgTimes{ok: map[kzgOpKey]*results.ThroughputRow{}, any: map[kzgOpKey]*results.ThroughputRow{}}
	for i := range rs.Throughput {
		t := &rs.Throughput[i]
		for _, batch := range []int{t.Batch, 0} {
			k := kzgOpKey{t.Lib, t.Param, t.Op, batch}
			if kz.any[k] == nil {
				kz.any[k] = t
			}
			if t.Error == "" && kz.ok[k] == nil {
				kz.ok[k] = t
			}
		}
	}
	return kz
}

// op returns the row of op (at batch, 0 for any) timed with lib at
// param, if it was timed without error.
func (kz *kzgTimes) op(lib vocab.Lib, param results.Param, op vocab.Op, batch int) (results.ThroughputRow, bool) {
	if t := kz.ok[kzgOpKey{lib, param, op, batch}]; t != nil {
		return *t, true
	}
	return results.ThroughputRow{}, false
}

// contextMemory is the memory a context holds: Go heap and C heap.
func contextMemory(r results.Row) (goHeap, cHeap float64) {
	goHeap = r.BytesPerInstance
	if r.CHeapBytesPerInstance != nil {
		cHeap = *r.CHeapBytesPerInstance
	}
	return goHeap, cHeap
}

// kzgSection returns the measured instances of typ, by library and
// setting, not by size.
func kzgSection(rs *results.File, typ vocab.Type) []results.Row {
	rows := suites.Measured(rs, typ)
	slices.SortStableFunc(rows, func(a, b results.Row) int { return results.Compare(a.Key, b.Key) })
	return rows
}

func kzgContexts(rs *results.File, kz *kzgTimes) []suites.ReviewBlock {
	ctxs := kzgSection(rs, vocab.KZGContext)
	if len(ctxs) == 0 {
		return nil
	}
	t := suites.ReviewTable{Header: []string{"lib", "setting", "Go heap", "C heap", "total", "RSS", "build time"}, Right: []bool{false, false, true, true, true, true, true}}
	for _, op := range kzgDetailOps {
		t.Header = append(t.Header, string(op))
		t.Right = append(t.Right, true)
	}
	for _, r := range ctxs {
		g, c := contextMemory(r)
		cells := []string{string(r.Lib), dash(string(r.Param)), mib(g), cHeapCell(r), mib(g + c), knownOr(figure("rss_bytes_per_instance"), &r, mib), knownOr(figure("build_ns"), &r, units.FormatNs)}
		for _, op := range kzgDetailOps {
			cells = append(cells, kz.time(r.Lib, r.Param, op, 0))
		}
		t.Rows = append(t.Rows, cells)
	}
	return []suites.ReviewBlock{{Heading: "Contexts"}, {Table: &t}, {Bullets: precomputeSentences(kz, ctxs)}}
}

// precomputeSentences says, for each library measured at several
// settings, what each setting costs over the smallest and what it buys in
// compute-cells-and-proofs; and how the libraries compare at their
// smallest settings.
func precomputeSentences(kz *kzgTimes, ctxs []results.Row) []string {
	var out []string
	byLib := map[vocab.Lib][]results.Row{}
	var libs []vocab.Lib
	for _, r := range ctxs {
		if _, ok := byLib[r.Lib]; !ok {
			libs = append(libs, r.Lib)
		}
		byLib[r.Lib] = append(byLib[r.Lib], r)
	}
	op := vocab.ComputeCellsAndProofs
	for _, lib := range libs {
		rows := byLib[lib]
		base := rows[0]
		bg, bc := contextMemory(base)
		bt, bok := kz.op(lib, base.Param, op, 0)
		for _, r := range rows {
			g, c := contextMemory(r)
			s := fmt.Sprintf("**%s %s**: %s (%s Go heap, %s C heap)", lib, settingName(r.Param), mib(g+c), mib(g), mib(c))
			if r.Param != base.Param {
				s += fmt.Sprintf(", +%s over %s", mib(g+c-bg-bc), settingName(base.Param))
			}
			if t, ok := kz.op(lib, r.Param, op, 0); ok {
				s += fmt.Sprintf("; %s %s", op, units.FormatNs(t.NsPerOpMedian))
				if bok && r.Param != base.Param && t.NsPerOpMedian > 0 {
					s += fmt.Sprintf(" against %s (%s× as fast)", units.FormatNs(bt.NsPerOpMedian), units.FormatFixed(bt.NsPerOpMedian/t.NsPerOpMedian, 2))
				}
			}
			out = append(out, s+".")
		}
	}
	if len(libs) >= 2 {
		a, b := byLib[libs[0]][0], byLib[libs[1]][0]
		ta, oka := kz.op(a.Lib, a.Param, op, 0)
		tb, okb := kz.op(b.Lib, b.Param, op, 0)
		if oka && okb && tb.NsPerOpMedian > 0 {
			ga, ca := contextMemory(a)
			gb, cb := contextMemory(b)
			out = append(out, fmt.Sprintf("**%s against %s**, each at its smallest setting: %s against %s of context, %s %s against %s (%s: %s× the time).",
				a.Lib, b.Lib, mib(ga+ca), mib(gb+cb), op, units.FormatNs(ta.NsPerOpMedian), units.FormatNs(tb.NsPerOpMedian), a.Lib, units.FormatFixed(ta.NsPerOpMedian/tb.NsPerOpMedian, 2)))
		}
	}
	return out
}

func settingName(p results.Param) string {
	if p == "" {
		return "(its one setting)"
	}
	return strings.ReplaceAll(string(p), "=", " ")
}

func kzgOps(rs *results.File, kz *kzgTimes) []suites.ReviewBlock {
	type col struct {
		lib   vocab.Lib
		param results.Param
	}
	var cols []col
	type opKey struct {
		op    vocab.Op
		batch int
	}
	var ops []opKey
	seenCol, seenOp := map[col]bool{}, map[opKey]bool{}
	sorted := slices.Clone(rs.Throughput)
	slices.SortStableFunc(sorted, func(a, b results.ThroughputRow) int { return results.Compare(a.Key, b.Key) })
	for _, t := range sorted {
		if t.Family() != vocab.KZG {
			continue
		}
		if c := (col{t.Lib, t.Param}); !seenCol[c] {
			seenCol[c] = true
			cols = append(cols, c)
		}
		if k := (opKey{t.Op, t.Batch}); !seenOp[k] {
			seenOp[k] = true
			ops = append(ops, k)
		}
	}
	if len(ops) == 0 {
		return nil
	}
	slices.SortStableFunc(cols, func(a, b col) int {
		return results.Compare(results.Key{Lib: a.lib, Param: a.param}, results.Key{Lib: b.lib, Param: b.param})
	})
	out := []suites.ReviewBlock{{Heading: "Operations"}}
	if more := len(cols) - maxOpColumns; more > 0 {
		cols = cols[:maxOpColumns]
		out = append(out, suites.ReviewBlock{Paragraph: fmt.Sprintf("_%d more libraries and settings were timed than these tables have columns for (%d): their rows are in results.csv._", more, maxOpColumns)})
	}
	table := func(cell func(c col, op vocab.Op, batch int) string) suites.ReviewBlock {
		t := suites.ReviewTable{Header: []string{"op", "batch"}, Right: []bool{false, true}}
		for _, c := range cols {
			t.Header = append(t.Header, strings.TrimSpace(string(c.lib)+" "+string(c.param)))
			t.Right = append(t.Right, true)
		}
		for _, k := range ops {
			cells := []string{string(k.op), fmt.Sprint(k.batch)}
			for _, c := range cols {
				cells = append(cells, cell(c, k.op, k.batch))
			}
			t.Rows = append(t.Rows, cells)
		}
		return suites.ReviewBlock{Table: &t}
	}
	return append(out,
		suites.ReviewBlock{Paragraph: "Median time per call; one call handles `batch` items."},
		table(func(c col, op vocab.Op, batch int) string { return kz.time(c.lib, c.param, op, batch) }),
		suites.ReviewBlock{Paragraph: "Memory per call: Go heap allocated (B/op) and, for a cgo library, the C heap the call keeps (mallinfo2 in use after the call minus before; chunks glibc caches for reuse count as in use)."},
		table(func(c col, op vocab.Op, batch int) string {
			t, ok := kz.op(c.lib, c.param, op, batch)
			if !ok {
				return kz.time(c.lib, c.param, op, batch) // "-" or "error"
			}
			s := knownOr(figure("bytes_per_op"), &t, units.FormatBytes)
			if t.CHeapBytesPerOp != nil {
				s += " · C " + units.FormatBytes(*t.CHeapBytesPerOp)
			}
			return s
		}))
}

// kzgObjects compares the two libraries' objects, form by form.
func kzgObjects(rs *results.File) []suites.ReviewBlock {
	var libs []vocab.Lib
	type form struct {
		typ  vocab.Type
		repr vocab.Repr
	}
	var forms []form
	for _, r := range rs.Instances {
		if r.Family() != vocab.KZG || r.Layout != measure.Pointer || r.Error != "" {
			continue
		}
		if !slices.Contains(libs, r.Lib) {
			libs = append(libs, r.Lib)
		}
		if f := (form{r.Type, r.Repr}); !slices.Contains(forms, f) {
			forms = append(forms, f)
		}
	}
	if len(forms) == 0 {
		return nil
	}
	slices.SortFunc(libs, func(a, b vocab.Lib) int { return results.Compare(results.Key{Lib: a}, results.Key{Lib: b}) })
	t := suites.ReviewTable{Header: []string{"type", "repr"}, Right: []bool{false, false}}
	for _, l := range libs {
		t.Header = append(t.Header, string(l)+" B", string(l)+" objects")
		t.Right = append(t.Right, true, true)
	}
	for _, f := range forms {
		cells := []string{string(f.typ), string(f.repr)}
		for _, l := range libs {
			b, o := "-", "-"
			for _, r := range rs.Instances {
				if r.Type == f.typ && r.Repr == f.repr && r.Lib == l && r.Layout == measure.Pointer && r.Error == "" {
					b, o = units.FormatFigure(r.BytesPerInstance), units.FormatFigure(r.AllocsPerInstance)
				}
			}
			cells = append(cells, b, o)
		}
		t.Rows = append(t.Rows, cells)
	}
	return []suites.ReviewBlock{{Heading: "Objects"},
		{Paragraph: "Go heap per object (B), each held by pointer; c-kzg's objects are byte arrays, the C library decodes them inside each call."},
		{Table: &t}}
}

func kzgPeerDAS(rs *results.File) []suites.ReviewBlock {
	rows := kzgSection(rs, vocab.PeerDASNode)
	if len(rows) == 0 {
		return nil
	}
	t := suites.ReviewTable{Header: []string{"lib", "form", "blobs", "held", "B per blob", "objects per blob"}, Right: []bool{false, false, true, true, true, true}}
	for _, r := range rows {
		t.Rows = append(t.Rows, []string{string(r.Lib), string(r.Repr), fmt.Sprint(r.N), mib(r.BytesPerInstance * float64(r.N)), units.FormatFigure(r.BytesPerInstance), units.FormatFigure(r.AllocsPerInstance)})
	}
	return []suites.ReviewBlock{{Heading: "PeerDAS node"},
		{Paragraph: "A node holding the cells and proofs of N blobs (one block at a target of 6 blobs, at 72, and a custody window of 768)."},
		{Table: &t}}
}

// time is the median time of op for lib at param, "-" when it was not
// timed, "error" when it failed.
func (kz *kzgTimes) time(lib vocab.Lib, param results.Param, op vocab.Op, batch int) string {
	if t, ok := kz.op(lib, param, op, batch); ok {
		return units.FormatNs(t.NsPerOpMedian)
	}
	if kz.any[kzgOpKey{lib, param, op, batch}] != nil {
		return "error"
	}
	return "-"
}

// figure is the results' figure called name.
func figure(name string) *results.Figure { return results.FigureNamed(name) }

// knownOr writes f's value in row with format, or n/a where the row
// lacks it (a results file older than the figure).
func knownOr(f *results.Figure, row results.FigureRow, format func(float64) string) string {
	v, ok := f.Value(row)
	if !ok {
		return "n/a"
	}
	return format(v)
}

func cHeapCell(r results.Row) string {
	if r.CHeapBytesPerInstance == nil {
		return "n/a"
	}
	return mib(*r.CHeapBytesPerInstance)
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// mib writes bytes in MiB with one decimal: the unit of contexts and
// nodes.
func mib(b float64) string { return units.FormatFixed(b/(1<<20), 1) + " MiB" }
