package suites

import (
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/memprof"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

// TestNewRegistryRejectsBadKZG: an entry of the single layout without
// FixedN 1 (or FixedN 1 on another layout), a negative FixedN and an
// incomplete KZG agreement library are programming errors NewRegistry
// names.
func TestNewRegistryRejectsBadKZG(t *testing.T) {
	one := func() memprof.Case { return memprof.Case{NewOne: func() any { return new(int) }} }
	ctx := results.Key{Type: vocab.KZGContext, Lib: vocab.GoKZG, Repr: vocab.Decoded, Layout: measure.Single}
	blob := results.Key{Type: vocab.Blob, Lib: vocab.GoKZG, Repr: vocab.ByteForm, Layout: measure.Pointer}
	tests := []struct {
		name  string
		suite Suite
		want  string
	}{
		{"single without FixedN", Suite{Name: "k", Entries: []Entry{{Key: ctx, Constructor: "c", SizeHint: 8, Case: one}}},
			"entry KZGContext/gokzg/decoded/single: an entry of the single layout, and only one, has FixedN 1 (got 0)"},
		{"FixedN 1 on a pointer entry", Suite{Name: "k", Entries: []Entry{{Key: blob, Constructor: "c", SizeHint: 8, FixedN: 1, Case: one}}},
			"entry Blob/gokzg/bytes/pointer: an entry of the single layout, and only one, has FixedN 1 (got 1)"},
		{"negative FixedN", Suite{Name: "k", Entries: []Entry{{Key: blob, Constructor: "c", SizeHint: 8, FixedN: -6, Case: one}}},
			"entry Blob/gokzg/bytes/pointer: FixedN must not be negative, got -6"},
		{"incomplete KZG agreement lib", Suite{Name: "k", KZGAgree: []KZGAgreeLib{{Lib: vocab.GoKZG, BlobToCommitment: func([]byte) ([]byte, error) { return nil, nil }}}},
			"KZG agreement lib gokzg: set either all functions or Unavailable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewRegistry(tt.suite)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// TestKZGOpsTable: every row of the table is an operation of every
// library adapter, unavailable with the adapter's reason when it has one,
// not offered when it lacks the maker, and with its known result (Want)
// and isolation when it has it.
func TestKZGOpsTable(t *testing.T) {
	why := vocab.Because(vocab.NeedsCgo, "needs cgo (test)")
	maker := Offer[KZGMaker]("test call", func(KZGInput) (KZGCall, error) { return KZGCall{}, nil })
	for _, tt := range []struct {
		name string
		impl KZGImpls
		kind vocab.Kind // of every op's Unavailable, "" for available
	}{
		{"unavailable", KZGImpls{Lib: vocab.CKZG, Param: "precompute=6", Isolate: "ckzg/precompute=6", Unavailable: why}, vocab.NeedsCgo},
		{"no makers", KZGImpls{Lib: vocab.GoKZG}, vocab.NotOffered},
		{"every maker", KZGImpls{Lib: vocab.GoKZG, Isolate: "g", CHeap: true, Impls: map[vocab.Op]Impl[KZGMaker]{
			vocab.BlobToCommitment: maker, vocab.ComputeBlobProof: maker, vocab.VerifyBlobProof: maker, vocab.VerifyBlobProofBatch: maker,
			vocab.ComputeCellsAndProofs: maker, vocab.VerifyCellProofBatch: maker, vocab.RecoverCellsAndProofs: maker}}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ops := KZGOps(tt.impl)
			if len(ops) != len(kzgRows) {
				t.Fatalf("got %d operations, want one per row, %d", len(ops), len(kzgRows))
			}
			for _, o := range ops {
				if o.Unavailable.Kind != tt.kind || o.Param != tt.impl.Param || o.Isolate != tt.impl.Isolate || o.CHeap != tt.impl.CHeap || o.Family() != vocab.KZG {
					t.Errorf("%s: got unavailable %+v, isolation %q, C heap %v; want kind %q and the adapter's settings", o.Key, o.Unavailable, o.Isolate, o.CHeap, tt.kind)
				}
				if tt.kind == "" && (o.Want == nil || o.Prepare == nil || !strings.HasPrefix(o.Note, "test call: ")) {
					t.Errorf("%s: got Want %v, Prepare %v, note %q; want both and the maker's note first", o.Key, o.Want != nil, o.Prepare != nil, o.Note)
				}
			}
			if _, err := NewRegistry(Suite{Name: tt.name, Ops: ops}); err != nil {
				t.Errorf("the table's operations do not make a registry: %v", err)
			}
		})
	}
}
