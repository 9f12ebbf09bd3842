// Package deptest lets a test see which packages of the module a package
// depends on, as the go command lists them, to hold the layout's rules
// (the engine imports only its leaves, presentation not the engine). It is
// for tests only.
package deptest

import (
	"os/exec"
	"strings"
	"testing"
)

// Module is the module's import path, with its final slash.
const Module = "github.com/memprof/memprof/"

// ModuleDeps returns the packages of the module that the package in dir
// depends on, directly or not, its tests left out (go list -deps), each
// as its path in the module ("measure", "internal/frame"); the package
// itself is among them. It skips the test where there is no go command,
// and fails it where go list fails or lists no package of the module.
func ModuleDeps(t *testing.T, dir string) []string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	cmd := exec.Command(gobin, "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	var deps []string
	for _, p := range strings.Fields(string(out)) {
		if rel, ok := strings.CutPrefix(p, Module); ok {
			deps = append(deps, rel)
		}
	}
	if len(deps) == 0 {
		t.Fatalf("go list -deps listed no package of the module: got %q", out)
	}
	return deps
}
