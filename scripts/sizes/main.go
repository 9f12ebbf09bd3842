// Command sizes lists, in the non-test Go files below a folder, the
// functions over -max-func lines and the files over -max-file lines, the
// two sizes the project's style sets as the most one can hold, and exits 1
// when it lists any. Tests, generated files (`// Code generated ... DO NOT
// EDIT.`) and testdata are left out: a table-driven test grows with its
// table, and no one reads generated code whole.
//
//	go run ./scripts/sizes
//	go run ./scripts/sizes -max-func 60 ./suites
package main

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go/ast"
	"go/parser"
	"go/token"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Limits are the largest sizes allowed, in lines.
type Limits struct {
	Func int // a function's lines, from func to its closing brace
	File int // a non-test file's lines
}

// An Oversize is one function or file past its limit.
type Oversize struct {
	Pos   string // file:line of the function or file
	Name  string // the function's name (Recv.Name for a method, "func literal"), or "" for a file
	Lines int
}

func (o Oversize) String() string {
	if o.Name == "" {
		return fmt.Sprintf("%s: file of %d lines", o.Pos, o.Lines)
	}
	return fmt.Sprintf("%s: func %s of %d lines", o.Pos, o.Name, o.Lines)
}

func run(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("sizes", flag.ContinueOnError)
	flags.SetOutput(stderr)
	var lim Limits
	flags.IntVar(&lim.Func, "max-func", 100, "list functions over `n` lines")
	flags.IntVar(&lim.File, "max-file", 600, "list non-test files over `n` lines")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	if lim.Func < 1 || lim.File < 1 {
		fmt.Fprintln(stderr, "sizes: -max-func and -max-file take a whole number of lines, 1 or more")
		return 2
	}
	roots := flags.Args()
	if len(roots) == 0 {
		roots = []string{"."}
	}
	var all []Oversize
	for _, root := range roots {
		found, err := Scan(root, lim)
		if err != nil {
			fmt.Fprintf(stderr, "sizes: %v\n", err)
			return 2
		}
		all = append(all, found...)
	}
	for _, o := range all {
		fmt.Fprintln(stdout, o)
	}
	if len(all) > 0 {
		return 1
	}
	return 0
}

// Scan walks root and returns every function and file past lim, in walk
// order. It skips tests, generated files and testdata, vendor and hidden
// folders.
func Scan(root string, lim Limits) ([]Oversize, error) {
	var found []Oversize
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		more, err := scanFile(path, lim)
		found = append(found, more...)
		return err
	})
	return found, err
}

// scanFile parses one non-test file and returns what in it is past lim.
func scanFile(path string, lim Limits) ([]Oversize, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("parsing %s: %w", path, err)
	}
	if ast.IsGenerated(f) {
		return nil, nil
	}
	var found []Oversize
	if lines := fset.File(f.Pos()).LineCount(); lines > lim.File {
		found = append(found, Oversize{Pos: path + ":1", Lines: lines})
	}
	ast.Inspect(f, func(n ast.Node) bool {
		var name string
		switch fn := n.(type) {
		case *ast.FuncDecl:
			name = fn.Name.Name
			if fn.Recv != nil && len(fn.Recv.List) == 1 {
				name = recvName(fn.Recv.List[0].Type) + "." + name
			}
		case *ast.FuncLit:
			name = "func literal"
		default:
			return true
		}
		start, end := fset.Position(n.Pos()), fset.Position(n.End())
		if lines := end.Line - start.Line + 1; lines > lim.Func {
			found = append(found, Oversize{Pos: fmt.Sprintf("%s:%d", path, start.Line), Name: name, Lines: lines})
		}
		return true
	})
	return found, nil
}

// recvName is a method's receiver type without its pointer and type
// parameters.
func recvName(t ast.Expr) string {
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return "?"
		}
	}
}
