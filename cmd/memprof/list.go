package main

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"

	"github.com/memprof/memprof/cmd/memprof/internal/cliflag"
	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/vocab"
	"github.com/memprof/memprof/workflow"
)

var listCommand = &command{
	Name:      "list",
	UsageLine: "list [--type T,...] [--long] [--format table|json]",
	Short:     "what can be measured: types, representations, libraries by family",
	Long: `List shows what memprof can measure in this build, one screen per
question: for each family (bls12-381, kzg, ...) that has cases, a matrix
of type and representation (rows) by library (columns), each cell the
layouts the library offers the representation in (p pointer, s slice, c
collection, si single; ×3: at three settings, such as c-kzg's precompute
levels) or n/a[k], the reason footnote k. The combinations that do not
apply to their type (an affine SecretKey) have no row.

--type keeps one part: a family (--type kzg) or types (--type
Signature,G1). --long says, for every combination instead, how an
instance is made or why it is not available. --format json lists every
name of the vocabulary and every combination with its family.`,
	Run: runList,
	Examples: []example{
		{Line: "memprof list", What: "the matrix of what can be measured"},
		{Line: "memprof list --type kzg", What: "one family"},
		{Line: "memprof list --type Signature --long", What: "how each Signature is made, or why it is not available"},
	},
}

func runList(ctx context.Context, inv *invocation, args []string) int {
	fs := inv.flags()
	format := cliflag.AddFormat(fs, "table", "json")
	types := fs.String("type", "", "only these `types` (comma-separated), or a family: "+vocab.Join(vocab.Families))
	long := fs.Bool("long", false, "say how each instance is made, or why it is not available, instead of the matrix")
	if code, done := inv.parseFlags(fs, args, format, func() []cliflag.Inert {
		return []cliflag.Inert{cliflag.Unless(format.Value == "table", "with --format json (it holds every sentence)", "long")}
	}); done {
		return code
	}
	var keep []vocab.Type
	if *types != "" {
		var err error
		if keep, err = workflow.ParseTypes(*types); err != nil {
			return inv.usageError("%v", vocab.Suggest(err, *types, workflow.TypeNames()))
		}
	}
	var entries []render.ListEntry
	for _, e := range inv.registry.Entries() {
		if keep != nil && !slices.Contains(keep, e.Type) {
			continue
		}
		entries = append(entries, render.ListEntry{ID: e.BenchName(), Family: e.Family(), Type: e.Type, Lib: e.Lib, Repr: e.Repr, Layout: e.Layout, Scheme: e.Scheme, Param: e.Param,
			Constructor: e.Constructor, Unavailable: e.Unavailable.Reason, Kind: e.Unavailable.Kind})
	}
	if len(entries) == 0 {
		return inv.usageError("--type %s: no combination is registered for it in this build", *types)
	}
	// Rendered whole, then written at once: an interrupt leaves nothing
	// half printed.
	var buf bytes.Buffer
	w := inv.live(&buf)
	if format.Value == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		err := enc.Encode(map[string]any{
			"families": vocab.Families, "types": vocab.Types, "libs": vocab.Libs, "reprs": vocab.Reprs,
			"layouts": measure.Layouts, "schemes": vocab.Schemes, "cases": entries,
		})
		if err != nil {
			return inv.fail("%v", err)
		}
		return inv.print(buf.Bytes())
	}
	width := render.TerminalWidth(inv.stdout)
	families, _, _ := render.ListedFamilies(entries)
	var err error
	if *long {
		err = render.ListLong(w, entries, families, width)
	} else {
		err = render.ListMatrix(w, entries, families, width)
	}
	if err != nil {
		return inv.fail("%v", err)
	}
	return inv.print(buf.Bytes())
}
