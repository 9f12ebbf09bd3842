package gate

import (
	"testing"

	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// TestOfSchemes: check --scheme keeps the budgets of the schemes named,
// narrows a budget of several schemes or none, leaves scheme-free types
// alone and does not modify the file read.
func TestOfSchemes(t *testing.T) {
	f, kept := ofSchemes(t, `version: 1
budgets:
  - select: {type: PublicKey, scheme: min-pk}
    max_bytes_per_instance: 96B
  - select: {type: PublicKey, scheme: min-sig}
    max_bytes_per_instance: 192B
  - select: {type: Signature}
    max_bytes_per_instance: 192B
  - select: {type: G1}
    max_bytes_per_instance: 96B
`, vocab.MinPk, 3, 1)
	tests := []selecting{
		{results.Key{Type: vocab.PublicKey, Scheme: vocab.MinPk}, 1},
		{results.Key{Type: vocab.PublicKey, Scheme: vocab.MinSig}, 0},
		{results.Key{Type: vocab.Signature, Scheme: vocab.MinSig}, 0},
		{results.Key{Type: vocab.Signature, Scheme: vocab.MinPk}, 1},
		{results.Key{Type: vocab.G1}, 1},
	}
	checkSelecting(t, kept, tests)
	if len(f.Budgets) != 4 || len(f.Budgets[2].Select.Scheme) != 0 {
		t.Errorf("OfSchemes modified the file read")
	}
}

// TestOfSchemesMinSig: a budget that names no scheme selects min-pk (what
// a run measures by default), so check --scheme min-sig leaves it out; one
// on every type keeps the types without a scheme only.
func TestOfSchemesMinSig(t *testing.T) {
	_, kept := ofSchemes(t, `version: 1
budgets:
  - select: {type: PublicKey, scheme: min-pk}
    max_bytes_per_instance: 96B
  - select: {type: PublicKey, scheme: [min-pk, min-sig]}
    max_bytes_per_instance: 192B
  - select: {type: Signature}
    max_bytes_per_instance: 192B
  - select: {lib: blst}
    max_bytes_per_instance: 1KiB
`, vocab.MinSig, 2, 2)
	tests := []selecting{
		{results.Key{Type: vocab.PublicKey, Lib: "gnark", Scheme: vocab.MinSig}, 1},
		{results.Key{Type: vocab.PublicKey, Lib: "blst", Scheme: vocab.MinPk}, 0},
		{results.Key{Type: vocab.Signature, Lib: "blst", Scheme: vocab.MinSig}, 0},
		{results.Key{Type: vocab.Signature, Lib: "blst", Scheme: vocab.MinPk}, 0},
		{results.Key{Type: vocab.G1, Lib: "blst"}, 1},
	}
	checkSelecting(t, kept, tests)
}

// ofSchemes parses the budgets file src and keeps its budgets of scheme
// (OfSchemes), checking how many it keeps and drops; it returns the file
// read and the one kept.
func ofSchemes(t *testing.T, src string, scheme vocab.Scheme, wantKept, wantDropped int) (f, kept *File) {
	t.Helper()
	f, err := Parse("b.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	kept, dropped := f.OfSchemes([]vocab.Scheme{scheme})
	if dropped != wantDropped || len(kept.Budgets) != wantKept {
		t.Fatalf("got %d kept, %d dropped, want %d and %d", len(kept.Budgets), dropped, wantKept, wantDropped)
	}
	return f, kept
}

// selecting is a key and how many budgets of a file select it.
type selecting struct {
	key  results.Key
	want int
}

// checkSelecting checks how many of f's budgets select each key.
func checkSelecting(t *testing.T, f *File, tests []selecting) {
	t.Helper()
	for _, tt := range tests {
		n := 0
		for _, b := range f.Budgets {
			if b.Select.Matches(tt.key) {
				n++
			}
		}
		if n != tt.want {
			t.Errorf("%s: %d budgets select it, want %d", tt.key, n, tt.want)
		}
	}
}
