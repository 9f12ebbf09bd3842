package main

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/memprof/memprof/model"
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
		Families []model.Family `json:"families"`
		Cases    []struct {
			Family model.Family `json:"family"`
			Type   model.Type   `json:"type"`
		} `json:"cases"`
	}
	if err := json.Unmarshal([]byte(stdout), &got); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Families, model.Families) {
		t.Errorf("families: got %v, want %v", got.Families, model.Families)
	}
	var withCases []model.Family
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
	heading := regexp.MustCompile(`^([a-z0-9-]+):$`)
	var sections []model.Family
	var cur model.Family
	for _, line := range strings.Split(stdout, "\n") {
		if m := heading.FindStringSubmatch(line); m != nil {
			cur = model.Family(m[1])
			sections = append(sections, cur)
			continue
		}
		// A row's first cell is its type (continuation rows have none).
		cells := strings.Split(line, "│")
		if cur == "" || len(cells) < 3 {
			continue
		}
		if ty := model.Type(strings.TrimSpace(cells[1])); model.Known(ty, model.Types) && ty.Family() != cur {
			t.Errorf("section %s holds a row of %s (family %s)", cur, ty, ty.Family())
		}
	}
	// In vocabulary order, only the families with cases (in a default
	// build, bls12-381 and kzg).
	if !slices.Equal(sections, withCases) || len(sections) < 2 {
		t.Errorf("sections: got %v, want the families with cases %v", sections, withCases)
	}
	if first := strings.SplitN(stdout, "\n", 2)[0]; first != "families: "+model.Join(withCases) {
		t.Errorf("first line: got %q, want the families with cases", first)
	}
}
