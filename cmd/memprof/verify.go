package main

import (
	"context"
	"io"
	"strings"

	"github.com/memprof/memprof/cmd/memprof/internal/cliflag"
	"github.com/memprof/memprof/cmd/memprof/internal/render"
	"github.com/memprof/memprof/fixtures"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/workflow"
)

var verifyCommand = &command{
	Name:      "verify",
	UsageLine: "verify [--format table|json] [-o FILE]",
	Short:     "check that the libraries of each family compute the same results",
	LongFunc: func() string {
		return `Verify runs the agreement checks that precede every throughput measurement.

` + checksHelp(registry()) + verifyHelpEnd
	},
	Run: runVerify,
	Examples: []example{
		{Line: "memprof verify", What: "check that the libraries agree on the test vectors", Measures: true},
	},
}

// verifyHelpEnd is the end of verify's help, after the checks'
// paragraphs.
const verifyHelpEnd = `

Every other family with suites in
this build has its own check, run here too. When more than one family is
checked, the table prints one line per family, and the results' agreement
record keeps each family's check under "families".

Before the libraries, verify reads every vector file built into memprof and
checks it against the SHA-256 that fixtures/PROVENANCE.md records (with its
source and number of cases); the table ends with one line per file and its
number of cases. A file cut or edited, or one without a record, fails the
check, naming the file, the recorded SHA-256 and the file's; every agreement
check that reads such a file fails the same way.

Exit status is 0 when the libraries agree, 1 when they do not (the error names
the case or blob, the object, the libraries and the first differing byte) or a
vector file is not the recorded one, 2 for a usage error.`

// checksHelp is the paragraphs of r's agreement checks as verify's help
// prints them (suites.FamilyCheck.Help), in family order.
func checksHelp(r *suites.Registry) string {
	var out []string
	for _, c := range r.Checks() {
		if c.Help != "" {
			out = append(out, c.Help)
		}
	}
	return strings.Join(out, "\n\n")
}

func runVerify(ctx context.Context, inv *invocation, args []string) int {
	fs := inv.flags()
	format := cliflag.AddFormat(fs, "table", "json")
	out := cliflag.AddOutput(fs)
	if code, done := inv.parseFlags(fs, args, format, nil); done {
		return code
	}
	if inv.stopDry() {
		return exitOK
	}
	files, err := checkVectorFiles()
	if err != nil {
		return inv.fail("%v", err)
	}
	rs, err := workflow.Verify(inv.registry, workflow.Options{Agree: agreeRuns})
	if err != nil {
		return inv.fail("%v", err)
	}
	return inv.writeResults(rs, format.Value, *out, func(w io.Writer, rs *results.File) error {
		if err := render.AgreementLine(w, rs.Agreement, inv.registry.CheckTexts()); err != nil {
			return err
		}
		listed := make([]render.VectorFile, len(files))
		for i, f := range files {
			listed[i] = render.VectorFile{Path: fixtures.Dir + "/" + f.Path, Cases: f.Cases, Noun: f.Noun}
		}
		return render.VectorFiles(w, fixtures.Dir+"/"+fixtures.ProvenanceFile, listed)
	})
}

// checkVectorFiles checks the vector files verify checks before the
// libraries: those built into the binary (a test substitutes a copy with
// a file cut).
var checkVectorFiles = func() ([]fixtures.FileCheck, error) { return fixtures.Embedded().Check() }
