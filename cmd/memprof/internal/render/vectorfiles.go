package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/memprof/memprof/fixtures"
)

// VectorFiles writes the vector files verify checked, one line each: its
// path and how many cases it holds, after a line that says every file has
// the SHA-256 its record gives.
func VectorFiles(w io.Writer, files []fixtures.FileCheck) error {
	width, digits := 0, 0
	for _, f := range files {
		width = max(width, len(fixtures.Dir)+1+len(f.Path))
		digits = max(digits, len(fmt.Sprint(f.Cases)))
	}
	if _, err := fmt.Fprintf(w, "vector files: %d, each with the SHA-256 %s/%s records\n", len(files), fixtures.Dir, fixtures.ProvenanceFile); err != nil {
		return err
	}
	for _, f := range files {
		noun := f.Noun
		if f.Cases == 1 {
			noun = strings.TrimSuffix(noun, "s")
		}
		if _, err := fmt.Fprintf(w, "  %-*s  %*d %s\n", width, fixtures.Dir+"/"+f.Path, digits, f.Cases, noun); err != nil {
			return err
		}
	}
	return nil
}
