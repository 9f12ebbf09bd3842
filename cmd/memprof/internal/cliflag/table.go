package cliflag

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
	"github.com/memprof/memprof/workflow"
)

// Table are --wide, --columns and --style, of the commands that
// print a terminal table of results rows.
type Table struct {
	wide    bool
	columns string
	style   string
}

func (t *Table) Add(fs *flag.FlagSet) {
	fs.BoolVar(&t.wide, "wide", false, "show every column of the table, not only the default ones within the terminal's width (CSV and JSON always have every column)")
	fs.StringVar(&t.columns, "columns", "", "show these `columns` of the table (comma-separated JSON names or header labels, such as type,lib,repr,B/instance,sizeof_bytes)")
	AddStyle(fs, &t.style)
}

// AddStyle adds --style, how a terminal table is drawn.
func AddStyle(fs *flag.FlagSet, style *string) {
	fs.StringVar(style, "style", string(render.Plain), "table `style`: plain (aligned columns) or box (drawn in boxes)")
}

// ParseStyle reads --style; the error is a usage error.
func ParseStyle(v string) (render.Style, error) {
	s, err := vocab.Canonical("style", v, render.Styles)
	return s, vocab.Suggest(err, v, vocab.Strings(render.Styles))
}

// FormatAndStyle reads --format and --style (style, both added to fs): a
// style for another format than the table is a usage error, as are the
// errors of Format.Get and ParseStyle.
func FormatAndStyle(fs *flag.FlagSet, format *Format, style string) (string, render.Style, error) {
	f, err := format.Get()
	if err != nil {
		return "", "", err
	}
	s, err := ParseStyle(style)
	if err != nil {
		return f, s, err
	}
	if WasGiven(fs, "style") && f != "table" {
		return f, s, fmt.Errorf("--style does nothing with --format %s: only the table has a style", f)
	}
	return f, s, nil
}

// Inert says that --wide and --columns do nothing in a format other than
// the table.
func (t *Table) Inert(format string) Inert {
	return Inert{format == "table", "with --format " + format + ": only the table chooses columns (CSV and JSON keep every one)", []string{"wide", "columns", "style"}}
}

// Options returns the table options of the flags for rows of kind
// ("instance" or "throughput"), whose columns applies tells, fitted to
// width, with the families' check texts; a bad --columns is a usage
// error.
func (t *Table) Options(width int, checks map[vocab.Family]string, kind string, applies func(results.Column) bool) (render.TableOptions, error) {
	o := render.TableOptions{Width: width, Wide: t.wide, Checks: checks}
	var err error
	if o.Style, err = ParseStyle(t.style); err != nil {
		return o, err
	}
	if t.columns == "" {
		return o, nil
	}
	if t.wide {
		return o, errors.New("--wide and --columns both choose the columns: give one")
	}
	cols, err := render.ChooseColumns(strings.Split(t.columns, ","), kind, applies)
	if err != nil {
		return o, err
	}
	o.Columns = cols
	return o, nil
}

// OpFlag writes --op as given, or "" when it was not.
func OpFlag(ops string) string {
	if ops == "" {
		return ""
	}
	return "--op " + ops
}

// filter returns the results.Selector of the selection flags and --op:
// unlike a measurement, no --type keeps every type; no --layout keeps the
// default layouts and --scheme min-pk (its default), as a measurement
// (and a budget's select) does.
func (s *Selection) Filter(ops string) (results.Selector, error) {
	var f results.Selector
	list := func(what, v string, valid []string) ([]string, error) {
		l, err := workflow.ParseList(what, v, valid)
		if err != nil {
			return nil, vocab.Suggest(err, v, valid)
		}
		return l, nil
	}
	var err error
	if s.Types != "" {
		types, err := workflow.ParseTypes(s.Types)
		if err != nil {
			return f, vocab.Suggest(err, s.Types, workflow.TypeNames())
		}
		f.Type = vocab.Strings(types)
	}
	if s.Libs != "" {
		if f.Lib, err = list("lib", s.Libs, vocab.Strings(vocab.Libs)); err != nil {
			return f, err
		}
	}
	if s.Reprs != "" {
		if f.Repr, err = list("repr", s.Reprs, vocab.Strings(vocab.Reprs)); err != nil {
			return f, err
		}
	}
	if s.Layouts != "" {
		if f.Layout, err = list("layout", s.Layouts, vocab.Strings(measure.Layouts)); err != nil {
			return f, err
		}
	}
	if f.Scheme, err = list("scheme", s.Scheme, vocab.Strings(vocab.Schemes)); err != nil {
		return f, err
	}
	if ops != "" {
		if f.Op, err = list("op", ops, vocab.Strings(vocab.Ops)); err != nil {
			return f, err
		}
	}
	return f, nil
}

// showOptions returns the table options of the flags for the two tables
// show prints: --columns names the columns of both, each table taking
// those that apply to its rows (a name that applies to neither is a
// usage error).
func (t *Table) ShowOptions(width int, checks map[vocab.Family]string, rs *results.File) (instances, ops render.TableOptions, err error) {
	columns := t.columns
	t.columns = ""
	base, err := t.Options(width, checks, "", nil)
	t.columns = columns
	if err != nil || columns == "" {
		return base, base, err
	}
	if t.wide {
		return base, base, fmt.Errorf("--wide and --columns both choose the columns: give one")
	}
	instances, ops = base, base
	isInstance := func(c results.Column) bool { return c.Instance != nil }
	isOp := func(c results.Column) bool { return c.Throughput != nil }
	var forInstances, forOps []string
	for _, name := range strings.Split(columns, ",") {
		c, err := results.LookupColumn(strings.TrimSpace(name))
		if err != nil {
			return instances, ops, fmt.Errorf("--columns: %w", err)
		}
		if isInstance(c) {
			forInstances = append(forInstances, name)
		}
		if isOp(c) {
			forOps = append(forOps, name)
		}
		if !isInstance(c) && !isOp(c) {
			return instances, ops, fmt.Errorf("--columns: column %q is in no table of show", name)
		}
	}
	if len(forInstances) > 0 {
		if instances.Columns, err = render.ChooseColumns(forInstances, "instance", isInstance); err != nil {
			return instances, ops, err
		}
	}
	if len(forOps) > 0 {
		if ops.Columns, err = render.ChooseColumns(forOps, "throughput", isOp); err != nil {
			return instances, ops, err
		}
	}
	return instances, ops, nil
}
