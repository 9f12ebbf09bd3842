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
// terminal's when w (standard output) is one, else $COLUMNS when it is a
// positive number, else DefaultWidth (120).
func TerminalWidth(w io.Writer) int {
	if f, ok := livewriter.Unwrap(w).(*os.File); ok && IsTerminal(w) {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	if c, err := strconv.Atoi(strings.TrimSpace(os.Getenv("COLUMNS"))); err == nil && c > 0 {
		return c
	}
	return DefaultWidth
}

// IsTerminal reports whether w is a terminal (progress is shown only
// there).
func IsTerminal(w io.Writer) bool {
	f, ok := livewriter.Unwrap(w).(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}
