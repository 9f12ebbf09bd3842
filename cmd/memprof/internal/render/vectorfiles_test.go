package render

import (
	"strings"
	"testing"
)

// TestVectorFiles: one line per file, the counts aligned, a single case
// in the singular.
func TestVectorFiles(t *testing.T) {
	var b strings.Builder
	err := VectorFiles(&b, "fixtures/PROVENANCE.md", []VectorFile{
		{Path: "fixtures/eip2537/blsPairing.json", Cases: 106, Noun: "vectors"},
		{Path: "fixtures/kzg-precompile/pointEvaluation.json", Cases: 1, Noun: "vectors"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "vector files: 2, each with the SHA-256 fixtures/PROVENANCE.md records\n" +
		"  fixtures/eip2537/blsPairing.json              106 vectors\n" +
		"  fixtures/kzg-precompile/pointEvaluation.json    1 vector\n"
	if got := b.String(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
