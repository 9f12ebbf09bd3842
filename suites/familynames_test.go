package suites

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// familyNamers are the non-test files outside suites/, fixtures/, vocab/
// and results/ that may name a family, and why: workflow's Verify runs
// BLS12-381's and KZG's checks when the registry has their libraries
// (which are of kinds of their own), and BLS12-381's when no check would
// run, as it always has.
var familyNamers = []string{"workflow/throughput.go"}

// familyOwners are the directories whose files may name families: the
// families' own packages, their vectors, the vocabulary, and the results
// file (whose agreement record keeps the first two families' checks as
// the files written before families did).
var familyOwners = []string{"suites/", "fixtures/", "vocab/", "results/"}

// TestOnlySuitesNameFamilies: no package outside suites/ and fixtures/
// names a family (a vocab.Family constant) except through the
// vocabulary's data: the views render families from their values.
func TestOnlySuitesNameFamilies(t *testing.T) {
	root := filepath.Join("..")
	consts := familyConstants(t, filepath.Join(root, "vocab", "family.go"))
	if len(consts) == 0 {
		t.Fatal("found no constant of type Family in vocab/family.go")
	}
	var named []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || slices.Contains(familyNamers, rel) ||
			slices.ContainsFunc(familyOwners, func(p string) bool { return strings.HasPrefix(rel, p) }) {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		vocabName := importName(f, "github.com/memprof/memprof/vocab")
		if vocabName == "" {
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if s, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := s.X.(*ast.Ident); ok && x.Name == vocabName && consts[s.Sel.Name] {
					named = append(named, rel+": vocab."+s.Sel.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range named {
		t.Errorf("%s names a family outside suites/ (give it to the family's value instead)", n)
	}
}

// familyConstants returns the names of the constants of type Family
// declared in the file at path.
func familyConstants(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			if id, ok := v.Type.(*ast.Ident); ok && id.Name == "Family" {
				for _, n := range v.Names {
					out[n.Name] = true
				}
			}
		}
	}
	return out
}

// importName is the name f imports path under, "" when it does not.
func importName(f *ast.File, path string) string {
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == path {
			if imp.Name != nil {
				return imp.Name.Name
			}
			return filepath.Base(path)
		}
	}
	return ""
}
