package render

import (
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/mattn/go-isatty"
	"golang.org/x/term"

	"github.com/memprof/memprof/internal/livewriter"
)

// Sized is a writer that says the width the tables it is given are
// fitted to (a test's buffer, which would otherwise need $COLUMNS, a
// process-wide setting): TerminalWidth asks it first.
type Sized interface {
	io.Writer
	Columns() int
}

// TerminalWidth is the width the terminal tables are fitted to: a Sized
// writer's among w's layers (standard output and the writers that wrap
// it), else the terminal's when w is one, else $COLUMNS when it is a
// positive number, else DefaultWidth (120).
func TerminalWidth(w io.Writer) int {
	for l, i := w, 0; l != nil && i < maxLayers; l, i = unwrap(l), i+1 {
		if s, ok := l.(Sized); ok {
			return s.Columns()
		}
	}
	if f, ok := File(w); ok && IsTerminal(f) {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	if c, err := strconv.Atoi(strings.TrimSpace(os.Getenv("COLUMNS"))); err == nil && c > 0 {
		return c
	}
	return DefaultWidth
}

// IsTerminal reports whether w, through whatever writers wrap it, is a
// terminal (progress is shown only there).
func IsTerminal(w io.Writer) bool {
	f, ok := File(w)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// Unwrapper is a writer that writes into another: File looks through it.
type Unwrapper interface {
	Unwrap() io.Writer
}

// maxLayers bounds File's unwrapping (a writer that wraps itself ends
// it).
const maxLayers = 16

// File returns the *os.File beneath w's layers: the livewriter.Writers
// and the Unwrappers (the CLI's standard output writer) that wrap it.
func File(w io.Writer) (*os.File, bool) {
	for range maxLayers {
		if v, ok := w.(*os.File); ok {
			return v, v != nil
		}
		if w = unwrap(w); w == nil {
			return nil, false
		}
	}
	return nil, false
}

// unwrap returns the writer w writes into, or nil when w wraps none.
func unwrap(w io.Writer) io.Writer {
	switch v := w.(type) {
	case livewriter.Writer:
		return livewriter.Unwrap(v)
	case Unwrapper:
		return v.Unwrap()
	}
	return nil
}
