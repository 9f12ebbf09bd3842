package render

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/units"
	"github.com/memprof/memprof/vocab"
)

// ThroughputTableFit writes the throughput rows of rs as terminal tables
// of the columns o chooses, fitted to o.Width, after a line on the
// agreement check: one table per type, a row per operation (those a
// library does not offer as "n/a[k]"). What a row's note says (what
// exactly is timed, its path, where it allocates) and why an operation
// is not offered are footnotes: the note column refers to them ("[1]").
func ThroughputTableFit(w io.Writer, rs *results.File, o TableOptions) error {
	if err := agreementLine(w, rs.Agreement, o.Checks, o.Width); err != nil {
		return err
	}
	rows := throughputRows(rs)
	for i, s := range sections(rows, func(r caseRow) string { return typeName(r.key) }) {
		cols := o.columns(results.ThroughputColumns)
		if o.Columns == nil {
			cols = omitEmpty(cols, rs, vocab.Type(s.name))
		}
		g := caseGrid(cols, o.Columns != nil, s.rows, false, true)
		if i > 0 {
			if _, err := fmt.Fprintln(w); err != nil {
				return err
			}
		}
		if err := writeGrid(w, g, o.Width, o.all(), o.Style); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, Wrap(fmt.Sprintf("GOMAXPROCS %d, %s. time/op is the median of the samples (wall time); CPU/op counts every thread of the process. Method: memprof throughput -h.", rs.Env.GOMAXPROCS, rs.Env.CPU), o.Width, ""))
	return err
}

// throughputRows returns the rows of the throughput table: every timed
// operation of rs, with its note (rowNote), then the operations a library
// does not offer, each in the one ordering.
func throughputRows(rs *results.File) []caseRow {
	var rows []caseRow
	for _, row := range SortedThroughput(rs.Throughput) {
		r := normalized(row)
		rows = append(rows, caseRow{key: r.Key, read: func(c results.Column) results.Cell { return c.ReadThroughput(r) }, error: r.Error, note: rowNote(r)})
	}
	for _, u := range unavailableOps(rs) {
		u.Key = u.Key.Normalize()
		rows = append(rows, caseRow{key: u.Key, read: func(c results.Column) results.Cell { return c.ReadUnavailable(&u) }, na: u.Reason})
	}
	// One section per type: the type's operations, then those not offered.
	slices.SortStableFunc(rows, func(a, b caseRow) int {
		return results.Compare(results.Key{Type: a.key.Type, Name: a.key.Name}, results.Key{Type: b.key.Type, Name: b.key.Name})
	})
	return rows
}

// AgreementLine writes one line on the agreement check, if there was one:
// one line per family when the record has the checks of several
// (results.Agreement.Families), each saying what its check compared
// (texts).
func AgreementLine(w io.Writer, a *results.Agreement, texts CheckTexts) error {
	return agreementLine(w, a, texts, 0)
}

// agreementLine is AgreementLine wrapped at width (0: one line).
func agreementLine(w io.Writer, a *results.Agreement, texts CheckTexts, width int) error {
	if a == nil {
		return nil
	}
	if len(a.Families) == 0 {
		return agreementFamilyLine(w, "", a.Libs, a.OK, a.Cases, AgreementChecks(a, texts), a.Unavailable, width)
	}
	for _, f := range a.Families {
		if err := agreementFamilyLine(w, f.Family, f.Libs, f.OK, f.Cases, texts.Of(f.Family), f.Unavailable, width); err != nil {
			return err
		}
	}
	return nil
}

// agreementFamilyLine writes the line of one check: "agreement: " then the
// family when there is one, the libraries, whether they agree (one
// library: whether it matches the known answers), on how many
// cases, what was compared and who was not checked.
func agreementFamilyLine(w io.Writer, family vocab.Family, libs []vocab.Lib, ok bool, cases int, checks string, unavailable []string, width int) error {
	// One library has no other to agree with: it is checked against
	// known answers.
	state := "agree"
	switch {
	case len(libs) == 1 && ok:
		state = "matches the known answers"
	case len(libs) == 1:
		state = "FAILS the known answers"
	case !ok:
		state = "DISAGREE"
	}
	line := "agreement: "
	if family != "" {
		line += string(family) + ": "
	}
	line += fmt.Sprintf("%s %s on %d cases (%s)", vocab.Join(libs), state, cases, checks)
	if len(unavailable) > 0 {
		line += "; not checked: " + strings.Join(unavailable, "; ")
	}
	_, err := fmt.Fprintln(w, Wrap(line, width, ""))
	return err
}

// CheckTexts says what each family's agreement check compares, by
// family (suites.Registry.CheckTexts).
type CheckTexts map[vocab.Family]string

// Of says what family f's agreement check compares; a family whose check
// says nothing of itself is named.
func (c CheckTexts) Of(f vocab.Family) string {
	if s, ok := c[f]; ok {
		return s
	}
	return "the " + string(f) + " agreement check"
}

// legacyBoth is what the one check of the records written before
// families compared when it checked the first two families' libraries
// together.
const legacyBoth = "keys, public keys, signatures, and KZG commitments, proofs, cells and cell proofs, byte for byte; each verifies the others'; round trips and recovery from half the cells"

// LegacyFamilies returns the families of the libraries of a record
// without Families (files written before families), each library counted
// in the first family it serves, in family order: the checks that record
// ran. A name that is no library counts in the first family.
func LegacyFamilies(libs []vocab.Lib) []vocab.Family {
	var out []vocab.Family
	for _, l := range libs {
		f := vocab.Families[0]
		if fs := l.Families(); len(fs) > 0 {
			f = fs[0]
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	slices.SortFunc(out, func(a, b vocab.Family) int {
		return slices.Index(vocab.Families, a) - slices.Index(vocab.Families, b)
	})
	return out
}

// AgreementChecks says what the agreement a compared when a has no
// Families (files written before families, and the records of one
// family's check alone): told by the libraries that took part or could
// not.
func AgreementChecks(a *results.Agreement, texts CheckTexts) string {
	libs := slices.Clone(a.Libs)
	for _, u := range a.Unavailable {
		name, _, _ := strings.Cut(u, ":")
		libs = append(libs, vocab.Lib(name))
	}
	switch fams := LegacyFamilies(libs); len(fams) {
	case 0:
		return texts.Of(vocab.Families[0])
	case 1:
		return texts.Of(fams[0])
	}
	return legacyBoth
}

// TradeoffTablesFit writes, for each type of rs, one table with a row per
// library and representation, fitted to o.Width, in o.Style: the bytes
// per instance beside the median time of every operation timed for the
// type. A cell says "n/a" when the library does not offer the operation
// on that representation, and "·" when the operation does not start
// from it.
func TradeoffTablesFit(w io.Writer, rs *results.File, o TableOptions) error {
	if err := agreementLine(w, rs.Agreement, o.Checks, o.Width); err != nil {
		return err
	}
	var types []vocab.Type
	for _, r := range rs.Instances {
		if !slices.Contains(types, r.Type) {
			types = append(types, r.Type)
		}
	}
	for _, r := range rs.Throughput {
		if !slices.Contains(types, r.Type) {
			types = append(types, r.Type)
		}
	}
	slices.SortStableFunc(types, func(a, b vocab.Type) int {
		return results.Compare(results.Key{Type: a}, results.Key{Type: b})
	})
	for _, typ := range types {
		if err := tradeoffTable(w, rs, typ, o.Width, o.Style); err != nil {
			return err
		}
	}
	return nil
}

type tradeoffKey struct {
	lib  vocab.Lib
	repr vocab.Repr
}

type opColumn struct {
	op    vocab.Op
	batch int
}

func (c opColumn) title() string {
	if c.batch > 1 {
		return string(c.op) + "×" + strconv.Itoa(c.batch)
	}
	return string(c.op)
}

func tradeoffTable(w io.Writer, rs *results.File, typ vocab.Type, width int, style Style) error {
	var keys []tradeoffKey
	add := func(k tradeoffKey) {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	bytesOf := map[tradeoffKey]string{}
	for _, r := range rs.Instances {
		if r.Type != typ {
			continue
		}
		k := tradeoffKey{r.Lib, r.Repr}
		add(k)
		v := "error"
		if r.Error == "" {
			v = Num(r.BytesPerInstance)
			if r.Layout != measure.Pointer {
				v += "(" + string(r.Layout) + ")"
			}
		}
		if _, seen := bytesOf[k]; !seen || r.Layout == measure.Pointer {
			bytesOf[k] = v
		}
	}
	var cols []opColumn
	cells := map[tradeoffKey]map[opColumn]string{}
	set := func(k tradeoffKey, c opColumn, v string) {
		add(k)
		if !slices.Contains(cols, c) {
			cols = append(cols, c)
		}
		if cells[k] == nil {
			cells[k] = map[opColumn]string{}
		}
		cells[k][c] = v
	}
	for _, r := range rs.Throughput {
		if r.Type != typ {
			continue
		}
		v := "error"
		if r.Error == "" {
			v = strings.ReplaceAll(Duration(r.NsPerOpMedian), " ", "")
		}
		set(tradeoffKey{r.Lib, r.Repr}, opColumn{r.Op, r.Batch}, v)
	}
	for _, u := range rs.Unavailable {
		if u.Type == typ && u.Op != "" {
			batchOf := 0
			for _, c := range cols {
				if c.op == u.Op {
					batchOf = c.batch
				}
			}
			if batchOf == 0 {
				continue // an operation timed nowhere gets no column
			}
			set(tradeoffKey{u.Lib, u.Repr}, opColumn{u.Op, batchOf}, "n/a")
		}
	}
	slices.SortStableFunc(cols, func(a, b opColumn) int {
		return results.Compare(results.Key{Op: a.op}, results.Key{Op: b.op})
	})
	slices.SortStableFunc(keys, func(a, b tradeoffKey) int {
		return results.Compare(results.Key{Type: typ, Lib: a.lib, Repr: a.repr}, results.Key{Type: typ, Lib: b.lib, Repr: b.repr})
	})
	g := &grid{heading: []string{string(typ) + ": bytes per instance and median time per operation (the representation the operation starts from)"}}
	g.cols = []gridCol{{label: "lib", kind: keyCol}, {label: "repr", kind: keyCol}, {label: "B/instance", short: "B/inst", right: true, kind: figureCol, keep: true}}
	for _, c := range cols {
		g.cols = append(g.cols, gridCol{label: c.title(), right: true, kind: figureCol})
	}
	for _, k := range keys {
		b, ok := bytesOf[k]
		if !ok {
			b = "-"
		}
		row := []gridCell{plain(string(k.lib)), plain(string(k.repr)), plain(b)}
		for _, c := range cols {
			v := cells[k][c]
			if v == "" {
				v = "·"
			}
			row = append(row, plain(v))
		}
		g.add(row...)
	}
	if len(cols) == 0 {
		g.after = []string{"no operation was timed for this type"}
	} else {
		g.after = []string{"n/a: the library does not offer the operation (the reason is in the JSON and in memprof throughput); ·: the operation does not start from this representation. Times are medians of wall time; see memprof throughput for quartiles, CPU time and allocations."}
	}
	if _, err := fmt.Fprintln(w); err != nil {
		return err
	}
	return writeGrid(w, g, width, false, style)
}

// maxNoteSites is how many of a row's allocation sites its note lists.
const maxNoteSites = 3

// rowNote is what the note under the throughput table says of r: its
// path, what is timed, and where one call allocates (the largest sites).
func rowNote(r *results.ThroughputRow) string {
	var parts []string
	if r.Path != "" {
		parts = append(parts, "path "+r.Path)
	}
	if r.Note != "" {
		parts = append(parts, r.Note)
	}
	if len(r.Sites) > 0 {
		var sites []string
		for _, s := range r.Sites[:min(len(r.Sites), maxNoteSites)] {
			sites = append(sites, siteText(s))
		}
		more := ""
		if n := len(r.Sites) - maxNoteSites; n > 0 {
			more = fmt.Sprintf(" and %d more", n)
		}
		per := ""
		if r.CoresDependent {
			per = fmt.Sprintf(" (at GOMAXPROCS %s: depends on the cores)", "of the run")
		}
		parts = append(parts, "allocates per call"+per+": "+strings.Join(sites, ", ")+more)
	}
	return strings.Join(parts, "; ")
}

// siteText writes one allocation site: "PairingCtx (blst.go:345) 3.1 KB
// in 1 object".
func siteText(s measure.OpSite) string {
	where := results.ShortFunction(s.Function)
	if s.File != "" {
		where += " (" + s.File[strings.LastIndexByte(s.File, '/')+1:] + ":" + strconv.FormatInt(s.Line, 10) + ")"
	}
	return where + " " + units.Bytes.Format(s.BytesPerOp) + " in " + units.Count.Format(s.AllocsPerOp) + " objects"
}
