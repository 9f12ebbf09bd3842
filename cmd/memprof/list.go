package main

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/model"
)

var listCommand = &command{
	Name:      "list",
	UsageLine: "list [--format table|json]",
	Short:     "list types, libraries, representations, layouts and which combinations exist, by family",
	Long: `List prints the names memprof accepts and every registered combination of
type, library, representation and layout, with how an instance is made or,
where a library does not offer the combination (or this build cannot run it),
why not: one table per family (bls12-381, kzg, ...) that has cases in this
build. The table lists the families, types and libraries of those families;
--format json lists every name of the vocabulary, and each case's family.`,
	Run: runList,
}

// listEntry is the JSON form of one registered combination.
type listEntry struct {
	ID          string       `json:"id"`
	Family      model.Family `json:"family"`
	Type        model.Type   `json:"type"`
	Lib         model.Lib    `json:"lib"`
	Repr        model.Repr   `json:"repr"`
	Layout      model.Layout `json:"layout"`
	Scheme      model.Scheme `json:"scheme,omitempty"`
	Param       model.Param  `json:"param,omitempty"`
	Constructor string       `json:"constructor,omitempty"`
	Unavailable string       `json:"unavailable,omitempty"`
	Kind        model.Kind   `json:"unavailable_kind,omitempty"`
}

func runList(ctx context.Context, inv *invocation, args []string) int {
	fs := inv.flags()
	format := addFormat(fs, "table", "json")
	if code, done := inv.parseFlags(fs, args, format, nil); done {
		return code
	}
	var entries []listEntry
	for _, e := range inv.registry.Entries() {
		entries = append(entries, listEntry{e.BenchName(), e.Family(), e.Type, e.Lib, e.Repr, e.Layout, e.Scheme, e.Param, e.Constructor, e.Unavailable.Reason, e.Unavailable.Kind})
	}
	if format.value == "json" {
		enc := json.NewEncoder(inv.stdout)
		enc.SetIndent("", "  ")
		err := enc.Encode(map[string]any{
			"families": model.Families, "types": model.Types, "libs": model.Libs, "reprs": model.Reprs,
			"layouts": model.Layouts, "schemes": model.Schemes, "cases": entries,
		})
		if err != nil {
			return inv.fail("%v", err)
		}
		return exitOK
	}
	w := inv.stdout
	width := terminalWidth(w)
	families, types, libs := listedFamilies(entries)
	for _, l := range [][2]string{{"families:", model.Join(families)}, {"types:   ", model.Join(types)}, {"libs:    ", model.Join(libs)}, {"reprs:   ", model.Join(model.Reprs)},
		{"layouts: ", model.Join(model.Layouts)}, {"schemes: ", model.Join(model.Schemes) + " (PublicKey and Signature)"}} {
		fmt.Fprintln(w, l[0]+" "+render.Wrap(l[1], width, "          "))
	}
	// One table per family. The scheme (PublicKey and Signature) and the
	// parameter (a population, a precompute level, a parameter set) share
	// a column: no case has both, and the table then fits 80 columns.
	for _, f := range families {
		fmt.Fprintf(w, "\n%s:\n", f)
		t := render.MarkdownTable{Header: []string{"type", "lib", "repr", "layout", "variant", "how an instance is made, or why it is not available"}}
		for _, e := range entries {
			if e.Family != f {
				continue
			}
			how := e.Constructor
			if e.Unavailable != "" {
				how = "n/a: " + e.Unavailable
			}
			variant := strings.TrimSpace(string(e.Scheme) + " " + string(e.Param))
			t.Rows = append(t.Rows, []string{string(e.Type), string(e.Lib), string(e.Repr), string(e.Layout), variant, how})
		}
		// The last column wraps to the terminal's width.
		if err := render.WriteFitted(w, t, width, []int{5}, nil); err != nil {
			return inv.fail("%v", err)
		}
	}
	return exitOK
}

// listedFamilies returns the families that have cases among entries, and
// their types and libraries, in vocabulary order: a family without a
// suite in this build is not listed.
func listedFamilies(entries []listEntry) (families []model.Family, types []model.Type, libs []model.Lib) {
	for _, f := range model.Families {
		if !slices.ContainsFunc(entries, func(e listEntry) bool { return e.Family == f }) {
			continue
		}
		families = append(families, f)
		types = append(types, f.Types()...)
		for _, l := range f.Libs() {
			if !slices.Contains(libs, l) {
				libs = append(libs, l)
			}
		}
	}
	slices.SortStableFunc(libs, func(a, b model.Lib) int { return slices.Index(model.Libs, a) - slices.Index(model.Libs, b) })
	return families, types, libs
}
