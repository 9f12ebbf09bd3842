package main

import (
	"errors"
	"flag"
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/term"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// terminalWidth is the width the terminal tables are fitted to: the
// terminal's when w (standard output) is one, else $COLUMNS when it is a
// positive number, else render.DefaultWidth (120).
func terminalWidth(w io.Writer) int {
	if f, ok := underlying(w).(*os.File); ok && isTerminal(w) {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	if c, err := strconv.Atoi(strings.TrimSpace(os.Getenv("COLUMNS"))); err == nil && c > 0 {
		return c
	}
	return render.DefaultWidth
}

// tableWriter is where a command's table goes: stdout, or, with -o, a
// file (nil), which has no terminal width.
func tableWriter(inv *invocation, out string) io.Writer {
	if out != "" {
		return nil
	}
	return inv.stdout
}

// tableFlags are --wide, --columns and --style, of the commands that
// print a terminal table of results rows.
type tableFlags struct {
	wide    bool
	columns string
	style   string
}

func (t *tableFlags) add(fs *flag.FlagSet) {
	fs.BoolVar(&t.wide, "wide", false, "show every column of the table, not only the default ones within the terminal's width (CSV and JSON always have every column)")
	fs.StringVar(&t.columns, "columns", "", "show these `columns` of the table (comma-separated JSON names or header labels, such as type,lib,repr,B/instance,sizeof_bytes)")
	addStyle(fs, &t.style)
}

// addStyle adds --style, how a terminal table is drawn.
func addStyle(fs *flag.FlagSet, style *string) {
	fs.StringVar(style, "style", string(render.Plain), "table `style`: plain (aligned columns) or box (drawn in boxes)")
}

// parseStyle reads --style; the error is a usage error.
func parseStyle(v string) (render.Style, error) {
	s, err := vocab.Canonical("style", v, render.Styles)
	return s, vocab.Suggest(err, v, vocab.Strings(render.Styles))
}

// inert says that --wide and --columns do nothing in a format other than
// the table.
func (t *tableFlags) inert(format string) inert {
	return inert{format == "table", "with --format " + format + ": only the table chooses columns (CSV and JSON keep every one)", []string{"wide", "columns", "style"}}
}

// options returns the table options of the flags for rows of kind
// ("instance" or "throughput"), whose columns applies tells; a bad
// --columns is a usage error.
func (t *tableFlags) options(w io.Writer, kind string, applies func(results.Column) bool) (render.TableOptions, error) {
	o := render.TableOptions{Width: terminalWidth(w), Wide: t.wide, Checks: registry().CheckTexts()}
	var err error
	if o.Style, err = parseStyle(t.style); err != nil {
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
