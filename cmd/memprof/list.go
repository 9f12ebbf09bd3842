package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/suites"
)

func init() {
	register(&command{
		Name:      "list",
		UsageLine: "list [--format table|json]",
		Short:     "list types, libraries, representations, layouts and which combinations exist",
		Long: `List prints the names memprof accepts and every registered combination of
type, library, representation and layout, with how an instance is made or,
where a library does not offer the combination (or this build cannot run it),
why not.`,
		Run: runList,
	})
}

// listEntry is the JSON form of one registered combination.
type listEntry struct {
	ID          string `json:"id"`
	Type        string `json:"type"`
	Lib         string `json:"lib"`
	Repr        string `json:"repr"`
	Layout      string `json:"layout"`
	Scheme      string `json:"scheme,omitempty"`
	Constructor string `json:"constructor,omitempty"`
	Unavailable string `json:"unavailable,omitempty"`
}

func runList(ctx context.Context, inv *invocation, args []string) int {
	fs := inv.flags()
	format := fs.String("format", "table", "output `format`: table or json")
	if code, done := inv.parse(fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		return inv.usageError("unexpected arguments: %s", strings.Join(fs.Args(), " "))
	}
	if err := checkFlags(fs); err != nil {
		return inv.usageError("%v", err)
	}
	f, err := suites.Canonical("format", *format, []string{"table", "json"})
	if err != nil {
		return inv.usageError("%v", err)
	}
	var entries []listEntry
	for _, e := range suites.All() {
		entries = append(entries, listEntry{e.ID(), e.Type, e.Lib, e.Repr, e.Layout, e.Scheme, e.Constructor, e.Unavailable})
	}
	if f == "json" {
		enc := json.NewEncoder(inv.stdout)
		enc.SetIndent("", "  ")
		err := enc.Encode(map[string]any{
			"types": suites.Types, "libs": suites.Libs, "reprs": suites.Reprs,
			"layouts": suites.Layouts, "schemes": suites.Schemes, "cases": entries,
		})
		if err != nil {
			return inv.fail("%v", err)
		}
		return exitOK
	}
	w := inv.stdout
	fmt.Fprintf(w, "types:   %s\n", strings.Join(suites.Types, ", "))
	fmt.Fprintf(w, "libs:    %s\n", strings.Join(suites.Libs, ", "))
	fmt.Fprintf(w, "reprs:   %s\n", strings.Join(suites.Reprs, ", "))
	fmt.Fprintf(w, "layouts: %s\n", strings.Join(suites.Layouts, ", "))
	fmt.Fprintf(w, "schemes: %s (PublicKey and Signature)\n\n", strings.Join(suites.Schemes, ", "))
	t := render.NewTable(w)
	t.Header("type", "lib", "repr", "layout", "scheme", "how an instance is made, or why it is not available")
	for _, e := range entries {
		how := e.Constructor
		if e.Unavailable != "" {
			how = "n/a: " + e.Unavailable
		}
		if err := t.Append([]string{e.Type, e.Lib, e.Repr, e.Layout, e.Scheme, how}); err != nil {
			return inv.fail("%v", err)
		}
	}
	if err := t.Render(); err != nil {
		return inv.fail("%v", err)
	}
	return exitOK
}
