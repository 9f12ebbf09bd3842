package main

import (
	"context"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/memprof/memprof/memprof"
)

var versionCommand = &command{
	Name:      "version",
	UsageLine: "version",
	Short:     "print the versions of memprof, Go and the crypto libraries",
	Long: `Version prints memprof's version ((devel) when built from a checkout
rather than installed at a version), the commit it was built from when the
build recorded one (with "modified" when the work tree had changes), the
Go version, and the version of every crypto library module the build holds,
all from the binary's build information. A library this build leaves out
(blst, a cgo binding, when CGO_ENABLED=0) says so. memprof --version prints
the same.`,
	Run: runVersion,
	Examples: []example{
		{Line: "memprof version", What: "memprof's version and the libraries in this build"},
	},
}

func runVersion(ctx context.Context, inv *invocation, args []string) int {
	fs := inv.flags()
	if code, done := inv.parseFlags(fs, args, nil, nil); done {
		return code
	}
	return inv.print([]byte(strings.Join(versionLines(inv), "\n") + "\n"))
}

// versionLines are what version prints: memprof's version, its commit,
// Go's version, and a line per crypto library of the registry.
func versionLines(inv *invocation) []string {
	version, cgo := "(unknown: the binary has no build information)", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "CGO_ENABLED" {
				cgo = " CGO_ENABLED=" + s.Value
			}
		}
	}
	lines := []string{"memprof " + version}
	if rev, modified := memprof.VCSRevision(); rev != "" {
		l := "commit " + rev
		if modified {
			l += " (modified)"
		}
		lines = append(lines, l)
	}
	lines = append(lines, "go "+runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH+cgo)
	mods := inv.registry.Modules()
	versions := memprof.ModuleVersions(mods...)
	for _, m := range mods {
		v, ok := versions[m]
		if !ok {
			v = "not in this build"
		}
		lines = append(lines, m+" "+v)
	}
	return lines
}
