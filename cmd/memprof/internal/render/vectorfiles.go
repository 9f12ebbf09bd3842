package render

import (
	"fmt"
	"io"
	"strings"
)

// VectorFile is one vector file verify checked: its path as the user
// reads it, how many cases it holds and what a case is called (plural).
type VectorFile struct {
	Path  string
	Cases int
	Noun  string
}

// VectorFiles writes the vector files verify checked, one line each: its
// path and how many cases it holds, after a line that says every file has
// the SHA-256 that the record file (record) gives.
func VectorFiles(w io.Writer, record string, files []VectorFile) error {
	width, digits := 0, 0
	for _, f := range files {
		width = max(width, len(f.Path))
		digits = max(digits, len(fmt.Sprint(f.Cases)))
	}
	if _, err := fmt.Fprintf(w, "vector files: %d, each with the SHA-256 %s records\n", len(files), record); err != nil {
		return err
	}
	for _, f := range files {
		noun := f.Noun
		if f.Cases == 1 {
			noun = strings.TrimSuffix(noun, "s")
		}
		if _, err := fmt.Fprintf(w, "  %-*s  %*d %s\n", width, f.Path, digits, f.Cases, noun); err != nil {
			return err
		}
	}
	return nil
}
