package gate

import (
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/vocab"
)

func TestParseValid(t *testing.T) {
	src := `version: 1
budgets:
  - select: {type: signature, lib: BLST, repr: affine}   # names are case-insensitive
    max_bytes_per_instance: 1.5KiB
    max_allocs_per_instance: 1
    max_offheap_bytes_per_instance: 0
    owner: crypto-team
    reason: signatures cached per attestation
  - select: {type: Signature, lib: blst, op: verify}
    max_ns_per_op: 2ms
  - select:
      lib: [gnark, circl]
      layout: slice
    max_bytes_per_instance: 200
  - max_allocs_per_instance: 4
`
	f, err := Parse("b.yaml", []byte(src))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if len(f.Budgets) != 4 {
		t.Fatalf("got %d budgets, want 4", len(f.Budgets))
	}
	b := f.Budgets[0]
	if got, want := b.Select.String(), "{type: Signature, lib: blst, repr: affine}"; got != want {
		t.Errorf("selector: got %s, want %s", got, want)
	}
	wantLimits := []struct {
		m    Metric
		v    float64
		line int
	}{{BytesPerInstance, 1536, 4}, {AllocsPerInstance, 1, 5}, {OffheapBytesPerInstance, 0, 6}}
	if len(b.Limits) != len(wantLimits) {
		t.Fatalf("got %d limits, want %d", len(b.Limits), len(wantLimits))
	}
	for i, w := range wantLimits {
		l := b.Limits[i]
		if l.Metric != w.m || l.Value != w.v || l.Line != w.line {
			t.Errorf("limit %d: got %s=%v at line %d, want %s=%v at line %d", i, l.Metric.Key(), l.Value, l.Line, w.m.Key(), w.v, w.line)
		}
	}
	if b.Owner != "crypto-team" || b.Reason != "signatures cached per attestation" || b.Line != 3 {
		t.Errorf("budget 0: got owner %q reason %q line %d", b.Owner, b.Reason, b.Line)
	}
	if l := f.Budgets[1].Limits[0]; l.Metric != NsPerOp || l.Value != 2e6 {
		t.Errorf("budget 1: got %s=%v, want max_ns_per_op=2e6", l.Metric.Key(), l.Value)
	}
	if s := f.Budgets[2].Select; !slices.Equal(s.Lib, []string{"gnark", "circl"}) || !slices.Equal(s.Layout, []string{"slice"}) {
		t.Errorf("budget 2 selector: got %s", s)
	}
	if s := f.Budgets[3].Select; s.String() != "{}" {
		t.Errorf("budget 3 without select: got %s, want {} (all)", s)
	}
}

func TestSelectorMatches(t *testing.T) {
	sel := func(src string) Selector {
		t.Helper()
		f, err := Parse("s.yaml", []byte("version: 1\nbudgets:\n  - select: "+src+"\n    max_ns_per_op: 1ms\n"))
		if err != nil {
			f, err = Parse("s.yaml", []byte("version: 1\nbudgets:\n  - select: "+src+"\n    max_bytes_per_instance: 1\n"))
		}
		if err != nil {
			t.Fatalf("selector %s: %v", src, err)
		}
		return f.Budgets[0].Select
	}
	tests := []struct {
		sel                            string
		typ, lib, repr, layout, scheme string
		wantInstance                   bool
		opType, opLib, opRepr, op      string
		wantOp                         bool
	}{
		// Operations of PublicKey and Signature carry the min-pk scheme,
		// which a time budget cannot select on.
		{"{}", "Signature", "blst", "affine", "pointer", "min-pk", true, "Signature", "blst", "affine", "verify", true},
		{"{type: Signature}", "PublicKey", "blst", "affine", "pointer", "min-pk", false, "PublicKey", "blst", "affine", "verify", false},
		{"{type: [PublicKey, Signature], lib: blst}", "PublicKey", "blst", "affine", "pointer", "", true, "Signature", "gnark", "affine", "verify", false},
		// An omitted layout or scheme selects what a run measures by
		// default: not the slice layout, not min-sig; all widens.
		{"{type: [PublicKey, Signature], lib: blst}", "PublicKey", "blst", "affine", "slice", "", false, "", "", "", "", false},
		{"{type: Signature}", "Signature", "blst", "affine", "pointer", "min-sig", false, "", "", "", "", false},
		{"{type: Signature, layout: all, scheme: all}", "Signature", "blst", "affine", "slice", "min-sig", true, "", "", "", "", false},
		{"{layout: [pointer, slice]}", "G1", "gnark", "affine", "slice", "", true, "", "", "", "", false},
		{"{}", "KZGContext", "ckzg", "decoded", "single", "", true, "", "", "", "", false},
		{"{}", "PubkeyCache", "gnark", "index-slice", "collection", "", true, "", "", "", "", false},
		{"{layout: slice}", "G1", "gnark", "affine", "pointer", "", false, "", "", "", "", false},
		{"{scheme: min-sig}", "Signature", "blst", "affine", "pointer", "min-pk", false, "", "", "", "", false},
		{"{scheme: min-sig}", "G1", "blst", "affine", "pointer", "", true, "", "", "", "", false},
		{"{op: verify}", "Signature", "blst", "affine", "pointer", "", false, "Signature", "blst", "affine", "verify", true},
		{"{op: verify}", "", "", "", "", "", false, "Signature", "blst", "affine", "aggregate", false},
	}
	for _, tt := range tests {
		s := sel(tt.sel)
		ik := results.Key{Type: vocab.Type(tt.typ), Lib: vocab.Lib(tt.lib), Repr: vocab.Repr(tt.repr), Layout: measure.Layout(tt.layout), Scheme: vocab.Scheme(tt.scheme)}
		if got := s.Matches(ik); got != tt.wantInstance {
			t.Errorf("%s Matches(%s): got %v, want %v", tt.sel, ik, got, tt.wantInstance)
		}
		if tt.op == "" {
			continue
		}
		ok := results.Key{Type: vocab.Type(tt.opType), Lib: vocab.Lib(tt.opLib), Repr: vocab.Repr(tt.opRepr), Op: vocab.Op(tt.op), Batch: 1}.Normalize()
		if got := s.Matches(ok); got != tt.wantOp {
			t.Errorf("%s Matches(%s): got %v, want %v", tt.sel, ok, got, tt.wantOp)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // each must appear in the error
	}{
		{"unknown top key", "version: 1\nbudget:\n  - max_bytes_per_instance: 1\n",
			[]string{`b.yaml:2: unknown key "budget": valid keys are budgets, version`, "b.yaml:1: missing budgets"}},
		{"unknown budget key", "version: 1\nbudgets:\n  - select: {type: Signature}\n    max_byte_per_instance: 192B\n",
			[]string{`b.yaml:4: unknown key "max_byte_per_instance"`, "max_bytes_per_instance"}},
		{"unknown selector key", "version: 1\nbudgets:\n  - select: {tpye: Signature}\n    max_bytes_per_instance: 1\n",
			[]string{`b.yaml:3: unknown key "tpye": valid keys are layout, lib, op, param, repr, scheme, type`}},
		{"unknown type name", "version: 1\nbudgets:\n  - select: {type: Sig}\n    max_bytes_per_instance: 1\n",
			[]string{`b.yaml:3: select: unknown type "Sig": valid types are SecretKey, PublicKey, Signature`}},
		{"unknown lib in list", "version: 1\nbudgets:\n  - select:\n      lib: [blst, openssl]\n    max_bytes_per_instance: 1\n",
			[]string{`b.yaml:4: select: unknown lib "openssl"`}},
		{"bad size unit", "version: 1\nbudgets:\n  - max_bytes_per_instance: 12XB\n",
			[]string{`b.yaml:3: max_bytes_per_instance: size "12XB"`}},
		{"bad duration unit", "version: 1\nbudgets:\n  - select: {op: verify}\n    max_ns_per_op: 2h\n",
			[]string{`b.yaml:4: max_ns_per_op: duration "2h"`}},
		{"negative", "version: 1\nbudgets:\n  - max_allocs_per_instance: -1\n",
			[]string{`b.yaml:3: max_allocs_per_instance: count "-1": must be a finite number >= 0`}},
		{"wrong version", "version: 2\nbudgets:\n  - max_allocs_per_instance: 1\n",
			[]string{`b.yaml:1: version must be 1, got "2"`}},
		{"missing version", "budgets:\n  - max_allocs_per_instance: 1\n",
			[]string{"b.yaml:1: missing version: 1"}},
		{"no limit", "version: 1\nbudgets:\n  - select: {type: G1}\n    owner: me\n",
			[]string{"b.yaml:3: budget has no limit"}},
		{"empty budgets", "version: 1\nbudgets: []\n",
			[]string{"b.yaml:2: budgets is empty"}},
		{"duplicate key", "version: 1\nbudgets:\n  - max_allocs_per_instance: 1\n    max_allocs_per_instance: 2\n",
			[]string{`b.yaml:4: duplicate key "max_allocs_per_instance"`}},
		{"op with memory limit", "version: 1\nbudgets:\n  - select: {op: verify}\n    max_bytes_per_instance: 1\n",
			[]string{"b.yaml:3: op selects operations, but max_bytes_per_instance bounds instances"}},
		{"layout with time limit", "version: 1\nbudgets:\n  - select: {op: verify, layout: slice}\n    max_ns_per_op: 1ms\n",
			[]string{"b.yaml:3: max_ns_per_op bounds operations, which have no layout or scheme"}},
		{"scheme on a type without one", "version: 1\nbudgets:\n  - select: {type: G1, lib: blst, scheme: min-pk}\n    max_bytes_per_instance: 96B\n",
			[]string{"b.yaml:3: select {type: G1, lib: blst, scheme: min-pk}: G1 has no scheme (only PublicKey, Signature have one: it decides their group): remove scheme"}},
		{"scheme on types without one", "version: 1\nbudgets:\n  - select: {type: [G1, G2], scheme: all}\n    max_bytes_per_instance: 96B\n",
			[]string{"b.yaml:3: select {type: [G1, G2], scheme: [min-pk, min-sig]}: G1, G2 have no scheme"}},
		{"all where omitting selects every name", "version: 1\nbudgets:\n  - select: {lib: all}\n    max_bytes_per_instance: 96B\n",
			[]string{`b.yaml:3: select: unknown lib "all"`}},
		{"not yaml", "version: 1\nbudgets: [\n", []string{"b.yaml: yaml:"}},
		{"empty file", "", []string{"b.yaml: empty file"}},
		{"two errors reported", "version: 1\nbudgets:\n  - max_byts: 1\n  - select: {lib: nope}\n    max_allocs_per_instance: 1\n",
			[]string{`b.yaml:3: unknown key "max_byts"`, `b.yaml:4: select: unknown lib "nope"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse("b.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("got %d budgets and no error, want an error", len(f.Budgets))
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %q does not wrap ErrInvalid", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestReadFileMissing(t *testing.T) {
	_, err := ReadFile("testdata/does-not-exist.yaml")
	if err == nil || !strings.Contains(err.Error(), "reading budgets") {
		t.Errorf("got %v, want a reading budgets error", err)
	}
}

// TestReadFileLimit: a budgets file past the limit is refused while
// reading, naming the file and the limit; /dev/zero stops at once.
func TestReadFileLimit(t *testing.T) {
	pass := "../fixtures/budgets/pass.yaml"
	size := fileSize(t, pass)
	tests := []struct {
		name  string
		path  string
		limit int64
		want  string // "" accepted
	}{
		{"fits exactly", pass, size, ""},
		{"default limit", pass, 0, ""},
		{"one byte over", pass, size - 1, "reading budgets " + pass + ": larger than the limit of " + strconv.FormatInt(size-1, 10) + " B"},
		{"endless input", "/dev/zero", 1 << 20, "reading budgets /dev/zero: larger than the limit of 1 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := os.Stat(tt.path); err != nil {
				t.Skip(err)
			}
			_, err := ReadFileLimit(tt.path, tt.limit)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("got %v, want accepted", err)
			case tt.want != "" && (err == nil || err.Error() != tt.want || !errors.Is(err, ErrTooLarge)):
				t.Errorf("got %v, want %s (wrapping ErrTooLarge)", err, tt.want)
			}
		})
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}
