package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memprof/memprof/cmd/memprof/internal/report"
	"github.com/memprof/memprof/measure"
	"github.com/memprof/memprof/results"
	"github.com/memprof/memprof/suites"
	"github.com/memprof/memprof/vocab"
)

// The test family lives only in this file: a family is a value
// (suites.Family, suites.FamilyCheck) given by one suite, and verify,
// list and the review show it with no other file knowing it. It borrows
// a family name and a library name of the vocabulary (a registry takes
// only those), and nothing of their real suites.
var (
	testFamily     = vocab.SLHDSA
	testFamilyLib  = vocab.Circl
	testFamilyType = vocab.SLHDSAPublicKey
)

const (
	testFamilyChecks  = "the test family's fake answers"
	testFamilyTitle   = "A test family: its section from its value"
	testFamilySubject = "Test-Family"
	testFamilyCases   = 3
)

// testFamilySuite is the one suite of the test family: an entry its fake
// library does not offer, its agreement check, and its value with a
// review section of a paragraph and a table built from the rows.
func testFamilySuite() suites.Suite {
	key := results.Key{Type: testFamilyType, Lib: testFamilyLib, Repr: vocab.Packed, Layout: measure.Pointer, Param: "set=SLH-DSA-SHA2-128s"}
	return suites.Suite{
		Name:        "testfamily",
		Entries:     []suites.Entry{{Key: key, Unavailable: vocab.Because(vocab.NotOffered, "a fake library of the test family")}},
		FamilyAgree: []suites.FamilyAgreeLib{{Family: testFamily, Lib: testFamilyLib, Impl: struct{}{}}},
		Checks: []suites.FamilyCheck{{Family: testFamily, Checks: testFamilyChecks,
			Run: func(libs []suites.FamilyAgreeLib) (*suites.AgreeReport, error) {
				rep := &suites.AgreeReport{Cases: testFamilyCases}
				for _, l := range libs {
					rep.Libs = append(rep.Libs, l.Lib)
				}
				return rep, nil
			}}},
		Families: []suites.Family{{Family: testFamily, Subject: testFamilySubject, Review: &suites.ReviewSection{
			Title:     testFamilyTitle,
			Paragraph: "One paragraph of the family's own.",
			Blocks: func(rs *results.File) []suites.ReviewBlock {
				t := suites.ReviewTable{Header: []string{"lib", "repr"}, Right: []bool{false, false}}
				for _, r := range suites.Measured(rs, testFamilyType) {
					t.Rows = append(t.Rows, []string{string(r.Lib), string(r.Repr)})
				}
				return []suites.ReviewBlock{{Heading: "Its rows"}, {Table: &t}}
			},
		}}},
	}
}

// registryOf is the registry of the suites given.
func registryOf(t *testing.T, ss ...suites.Suite) *suites.Registry {
	t.Helper()
	r, err := suites.NewRegistry(ss...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestTestFamily: verify runs the test family's check and says what it
// compares, list lists its entry, and the review names it in its title
// and writes its section, all from the family's value.
func TestTestFamily(t *testing.T) {
	r := registryOf(t, testFamilySuite())
	useRegistry(t, func() *suites.Registry { return r })

	code, stdout, stderr := runCLI(t, "verify")
	if code != exitOK {
		t.Fatalf("verify: exit %d: %s", code, stderr)
	}
	if want := "agreement: " + string(testFamily) + ": " + string(testFamilyLib) + " matches the known answers on 3 cases (" + testFamilyChecks + ")"; !strings.Contains(stdout, want) {
		t.Errorf("verify: got\n%s\nwant a line %q", stdout, want)
	}

	code, stdout, stderr = runCLI(t, "list")
	if code != exitOK {
		t.Fatalf("list: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, string(testFamilyType)) {
		t.Errorf("list: got\n%s\nwant the test family's type %s", stdout, testFamilyType)
	}

	rs := &results.File{Schema: results.Schema, Instances: []results.Row{{
		Key:         results.Key{Type: testFamilyType, Lib: testFamilyLib, Repr: vocab.Packed, Layout: measure.Pointer},
		Measurement: measure.Measurement{N: 1, BytesPerInstance: 32, AllocsPerInstance: 1},
	}}}
	out := filepath.Join(t.TempDir(), "review")
	if _, err := report.WriteContext(context.Background(), out, rs, report.Options{Registry: r}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, report.ReadmeFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# " + testFamilySubject + " representations",
		"## " + testFamilyTitle + "\n\nOne paragraph of the family's own.\n\n### Its rows\n\n",
		"| " + string(testFamilyLib) + " | packed |",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the review lacks %q:\n%s", want, b)
		}
	}
}
