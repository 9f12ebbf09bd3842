package gate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// countNodes counts the nodes yaml.v3 makes of src.
func countNodes(t *testing.T, src []byte) int {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	var count func(n *yaml.Node) int
	count = func(n *yaml.Node) int {
		c := 1
		for _, k := range n.Content {
			c += count(k)
		}
		return c
	}
	return count(&doc)
}

// TestYAMLNodesBound: yamlNodes is at least the number of nodes the
// parser makes, for every style a budgets file can take: the fixtures,
// flow and block lists, quoted strings holding indicators and '#',
// comments, block scalars and multi-line strings.
func TestYAMLNodesBound(t *testing.T) {
	docs := map[string]string{
		"flow list":             "a: [x, y, z, {p: q, r: [s, t]}]\n",
		"block list":            "a:\n  - x\n  - y\n  -   z: w\n",
		"quoted with indicator": "a: \"x: y, [z] # w\"\nb: ['#', c, d, e]\nc: 'it''s: # ok', d: e\n",
		"comments":              "# a: [b, c, d]\na: b # c: [d, e]\n",
		"block scalar":          "a: |\n  x: y\n  z\nb: >\n  w\n",
		"empty values":          "a:\nb: []\nc: {}\nd: [,]\n",
		"multi-line":            "a: \"x\n  y\"\nb: c\n  d\n",
		"anchors":               "a: &x [b, c]\nd: *x\ne: !!str f\n",
	}
	matches, _ := filepath.Glob("../fixtures/budgets/*.yaml")
	for _, m := range append(matches, "../memprof.budgets.yaml") {
		b, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		docs[m] = string(b)
	}
	for name, src := range docs {
		t.Run(name, func(t *testing.T) {
			var doc yaml.Node
			if yaml.Unmarshal([]byte(src), &doc) != nil {
				t.Skip("not YAML the parser takes")
			}
			if got, want := yamlNodes([]byte(src)), countNodes(t, []byte(src)); got < want {
				t.Errorf("yamlNodes is %d, want at least the %d nodes parsed", got, want)
			}
		})
	}
}

// TestReadFileNodes: a budgets file of more YAML nodes than its size
// limit allows is refused before it is parsed (what refusing allocates
// is about the file itself), naming the file and the limit; a large file
// of the usual shape and one with long comments are accepted.
func TestReadFileNodes(t *testing.T) {
	usual := func(n int) string {
		var b strings.Builder
		b.WriteString("version: 1\nbudgets:\n")
		for i := range n {
			fmt.Fprintf(&b, "  - select: {type: G1, lib: blst, repr: affine, param: row=%d}\n    max_bytes_per_instance: 96B\n    owner: t\n    reason: r\n", i)
		}
		return b.String()
	}
	names := func(n int, quoted bool) string {
		var b strings.Builder
		b.WriteString("version: 1\nbudgets:\n  - select: {param: [")
		if quoted {
			b.WriteString(`"#", `) // a quoted '#' is no comment
		}
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("a")
		}
		b.WriteString("]}\n    max_bytes_per_instance: 1\n")
		return b.String()
	}
	most := DefaultMaxBytes / BytesPerNode
	tests := []struct {
		name, src string
		refused   bool
	}{
		{"10,000 budgets of the usual shape", usual(10000), false},
		{"long comments", "# " + strings.Repeat("a, b, [c], ", 200000) + "\n" + usual(1), false},
		{"a dense list past the limit", names(most/2, false), true},
		{"a dense list behind a quoted #", names(most/2, true), true},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "b.yaml")
			if err := os.WriteFile(path, []byte(tt.src), 0o644); err != nil {
				t.Fatal(err)
			}
			var err error
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err = ReadFile(path)
			runtime.ReadMemStats(&after)
			if !tt.refused {
				if err != nil && errors.Is(err, ErrTooLarge) {
					t.Fatalf("got %v, want it read", err)
				}
				return
			}
			want := fmt.Sprintf("reading budgets %s: more than the limit of %d YAML nodes", path, most)
			if err == nil || !strings.HasPrefix(err.Error(), want) || !errors.Is(err, ErrTooLarge) {
				t.Fatalf("got %v, want %s... wrapping ErrTooLarge", err, want)
			}
			if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(4*len(tt.src)); got > limit {
				t.Errorf("refusing it allocated %d bytes, want at most %d (parsing it would cost hundreds of bytes per value)", got, limit)
			}
		})
	}
}
