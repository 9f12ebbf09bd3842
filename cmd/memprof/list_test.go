package main

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/cmd/memprof/internal/tabletest"
	"github.com/memprof/memprof/vocab"
)

// TestListByFamily: list prints one table per family that has cases, in
// family order, each holding only its family's types, and nothing of a
// family without a suite; the JSON names each case's family.
func TestListByFamily(t *testing.T) {
	code, stdout, stderr := runCLI(t, "list", "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got struct {
		Families []vocab.Family `json:"families"`
		Cases    []struct {
			Family vocab.Family `json:"family"`
			Type   vocab.Type   `json:"type"`
		} `json:"cases"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Families, vocab.Families) {
		t.Errorf("families: got %v, want %v", got.Families, vocab.Families)
	}
	var withCases []vocab.Family
	for _, c := range got.Cases {
		if c.Family != c.Type.Family() {
			t.Errorf("case of %s: family %q, want %q", c.Type, c.Family, c.Type.Family())
		}
		if !slices.Contains(withCases, c.Family) {
			withCases = append(withCases, c.Family)
		}
	}

	code, stdout, stderr = runCLI(t, "list")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// One matrix per family, headed by its name; each row's first cell
	// is its type.
	tables, _ := tabletest.Parse(stdout)
	var sections []vocab.Family
	for _, tb := range tables {
		f := vocab.Family(tb.Header[0])
		sections = append(sections, f)
		for _, r := range tb.Rows {
			if ty := vocab.Type(r[0]); !vocab.Known(ty, vocab.Types) || ty.Family() != f {
				t.Errorf("section %s holds a row of %s (family %s)", f, ty, ty.Family())
			}
		}
	}
	// In vocabulary order, only the families with cases (in a default
	// build, bls12-381 and kzg).
	if !slices.Equal(sections, withCases) || len(sections) < 2 {
		t.Errorf("sections: got %v, want the families with cases %v", sections, withCases)
	}
}

// TestListMatrix: the matrix has a row per type and representation of
// which some combination applies, a column per library, each cell the
// layouts offered or n/a[k] with footnote k; --type keeps one family or
// type; --long says how every combination is made; and the BLS12-381
// and KZG families fit one screen (60 lines at 80 columns; without cgo a
// footnote more).
func TestListMatrix(t *testing.T) {
	t.Setenv("COLUMNS", "80")
	// The families of the day (new families add rows, and take
	// --type for a part).
	code, stdout, stderr := runCLI(t, "list", "--type", "bls12-381,kzg")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(stdout, "\n"); n > 60 && !buildLacksCgo() {
		t.Errorf("list --type bls12-381,kzg prints %d lines at 80 columns, want at most 60:\n%s", n, stdout)
	}
	tables, other := tabletest.Parse(stdout)
	notes := strings.Join(other, " ")
	for _, tb := range tables {
		for _, r := range tb.Rows {
			for _, c := range r[2:] {
				if m := regexp.MustCompile(`^n/a(\[\d+\])$`).FindStringSubmatch(c); m != nil && !strings.Contains(notes, m[1]+" ") {
					t.Errorf("cell %s of %v refers to no footnote", c, r)
				}
			}
		}
	}
	bls := tables[0]
	for _, tt := range []struct {
		typ, repr, lib, want string
	}{
		{"Signature", "affine", "blst", "p,s,c"},
		{"SecretKey", "scalar", "gnark", "p,s"},
		{"G2", "prepared", "blst", "-"},
	} {
		row, ok := bls.Row(tt.typ, tt.repr)
		if !ok {
			t.Errorf("no row %s %s", tt.typ, tt.repr)
			continue
		}
		if got := bls.Cell(row, tt.lib); got != tt.want && !(tt.lib == "blst" && strings.HasPrefix(got, "n/a")) {
			t.Errorf("%s %s %s: got %q, want %q", tt.typ, tt.repr, tt.lib, got, tt.want)
		}
	}
	if _, ok := bls.Row("SecretKey", "affine"); ok {
		t.Errorf("a row of combinations that do not apply (SecretKey affine)")
	}

	code, stdout, _ = runCLI(t, "list", "--type", "kzg")
	if tables, _ := tabletest.Parse(stdout); code != exitOK || len(tables) != 1 || tables[0].Header[0] != "kzg" {
		t.Errorf("--type kzg: exit %d, want one kzg matrix:\n%s", code, stdout)
	}
	code, stdout, _ = runCLI(t, "list", "--type", "Signature", "--long")
	if code != exitOK || !strings.Contains(stdout, "Signature/blst/affine/pointer min-pk\n    ") || strings.Contains(stdout, "\nG1/") {
		t.Errorf("--type Signature --long: exit %d, want every Signature combination with its sentence:\n%s", code, stdout)
	}
	for _, line := range strings.Split(stdout, "\n") {
		if w := len([]rune(line)); w > 80 && strings.Contains(strings.TrimSpace(line), " ") {
			t.Errorf("--long line of %d columns at 80: %q", w, line)
		}
	}
}
