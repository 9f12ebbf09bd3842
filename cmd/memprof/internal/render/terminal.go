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

// TerminalWidth is the width the terminal tables are fitted to: the
// terminal's when w (standard output, through whatever writers wrap it)
// is one, else $COLUMNS when it is a positive number, else DefaultWidth
// (120).
func TerminalWidth(w io.Writer) int {
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
		switch v := w.(type) {
		case *os.File:
			return v, v != nil
		case livewriter.Writer:
			w = livewriter.Unwrap(v)
		case Unwrapper:
			w = v.Unwrap()
		default:
			return nil, false
		}
	}
	return nil, false
}
