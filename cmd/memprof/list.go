package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/model"
)

var listCommand = &command{
	Name:      "list",
	UsageLine: "list [--format table|json]",
	Short:     "list types, libraries, representations, layouts and which combinations exist",
	Long: `List prints the names memprof accepts and every registered combination of
type, library, representation and layout, with how an instance is made or,
where a library does not offer the combination (or this build cannot run it),
why not.`,
	Run: runList,
}

// listEntry is the JSON form of one registered combination.
type listEntry struct {
	ID          string       `json:"id"`
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
		entries = append(entries, listEntry{e.BenchName(), e.Type, e.Lib, e.Repr, e.Layout, e.Scheme, e.Param, e.Constructor, e.Unavailable.Reason, e.Unavailable.Kind})
	}
	// Rendered whole, then written at once: an interrupt leaves nothing
	// half printed.
	var buf bytes.Buffer
	w := inv.live(&buf)
	if format.value == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		err := enc.Encode(map[string]any{
			"types": model.Types, "libs": model.Libs, "reprs": model.Reprs,
			"layouts": model.Layouts, "schemes": model.Schemes, "cases": entries,
		})
		if err != nil {
			return inv.fail("%v", err)
		}
		return inv.print(buf.Bytes())
	}
	width := terminalWidth(inv.stdout)
	for _, l := range [][2]string{{"types:   ", model.Join(model.Types)}, {"libs:    ", model.Join(model.Libs)}, {"reprs:   ", model.Join(model.Reprs)},
		{"layouts: ", model.Join(model.Layouts)}, {"schemes: ", model.Join(model.Schemes) + " (PublicKey and Signature)"}} {
		fmt.Fprintln(w, l[0]+render.Wrap(l[1], width, "         "))
	}
	fmt.Fprintln(w)
	// The scheme (PublicKey and Signature) and the parameter (a population,
	// a precompute level) share a column: no case has both, and the table
	// then fits 80 columns.
	t := render.MarkdownTable{Header: []string{"type", "lib", "repr", "layout", "variant", "how an instance is made, or why it is not available"}}
	for _, e := range entries {
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
	return inv.print(buf.Bytes())
}
