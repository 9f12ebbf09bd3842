package frame

import (
	"path"
	"strings"
	"unicode"
)

// SourcePath returns file, the source file of the function named fn as a
// binary's symbol table records it (an absolute path on the machine that
// built it), in the form every output of memprof prints: module@version/path
// for a dependency in the module cache
// (github.com/supranational/blst@v0.3.17/bindings/go/blst.go), the
// standard library's import-path form (runtime/malloc.go), and the path
// within its module for other code (suites/blst/blst.go). mainModule, when
// known (runtime/debug.ReadBuildInfo's Main.Path), makes the last exact;
// otherwise the module's root is where the file's directory stops matching
// the function's package path. A path that is not absolute (a binary built
// with -trimpath) and one that none of this explains are returned as they
// are.
func SourcePath(fn, file, mainModule string) string {
	if !strings.HasPrefix(file, "/") && !isWindowsAbs(file) {
		return file
	}
	file = strings.ReplaceAll(file, `\`, "/")
	pkg := PackagePath(fn)
	if p, ok := moduleCachePath(file, pkg); ok {
		return p
	}
	dir, base := path.Split(file)
	dir = strings.TrimSuffix(dir, "/")
	pkgDir := strings.TrimSuffix(pkg, "_test") // an external test package's files are its package's
	if pkg == "" {
		return file
	}
	if first, _, _ := strings.Cut(pkg, "/"); !strings.Contains(first, ".") && pkg != "main" {
		// The standard library: GOROOT/src/<import path>/file.
		if strings.HasSuffix(dir, "/src/"+pkgDir) {
			return pkgDir + "/" + base
		}
	}
	if mainModule != "" && (pkgDir == mainModule || strings.HasPrefix(pkgDir, mainModule+"/")) {
		rel := strings.TrimPrefix(strings.TrimPrefix(pkgDir, mainModule), "/")
		if rel == "" {
			return base
		}
		if strings.HasSuffix(dir, "/"+rel) {
			return rel + "/" + base
		}
	}
	// The longest run of the package path's last elements that ends the
	// file's directory, short of the module path's least elements: the
	// package's directory within its module.
	dirs, elems := strings.Split(dir, "/"), strings.Split(pkgDir, "/")
	k := 0
	for k < len(elems)-minModuleElems(elems[0]) && k < len(dirs)-1 && dirs[len(dirs)-1-k] == elems[len(elems)-1-k] {
		k++
	}
	if k == 0 || pkg == "main" {
		return file
	}
	return strings.Join(dirs[len(dirs)-k:], "/") + "/" + base
}

// minModuleElems is the fewest elements a module path starting with host
// has: a repository on a hosting site is host/owner/repo, another module
// at least host/name.
func minModuleElems(host string) int {
	switch host {
	case "github.com", "gitlab.com", "bitbucket.org", "codeberg.org", "git.sr.ht":
		return 3
	}
	return 2
}

// moduleCachePath returns file as module@version/path when it is in a module
// cache: below a pkg/mod directory, or in a directory named
// <last element of pkg's module>@<version>.
func moduleCachePath(file, pkg string) (string, bool) {
	if i := strings.LastIndex(file, "/pkg/mod/"); i >= 0 {
		rest := file[i+len("/pkg/mod/"):]
		if at := strings.IndexByte(rest, '@'); at > 0 {
			end := len(rest)
			if slash := strings.IndexByte(rest[at:], '/'); slash >= 0 {
				end = at + slash
			}
			return unescapeModule(rest[:end]) + rest[end:], true
		}
	}
	// A module cache elsewhere (GOMODCACHE): the module's directory is
	// the element with an @, and the package path tells the rest of the
	// module's path.
	elems := strings.Split(file, "/")
	for i, e := range elems {
		name, version, ok := strings.Cut(e, "@")
		if !ok || version == "" || name == "" {
			continue
		}
		name = unescapeModule(name)
		pkgElems := strings.Split(pkg, "/")
		for j, pe := range pkgElems {
			if pe != name {
				continue
			}
			// The module path's elements before name must end the
			// directories before the @ element.
			mod := pkgElems[:j+1]
			if j > i {
				continue
			}
			match := true
			for m := range j {
				if unescapeModule(elems[i-j+m]) != mod[m] {
					match = false
					break
				}
			}
			if match {
				return strings.Join(mod, "/") + "@" + unescapeModule(version) + "/" + strings.Join(elems[i+1:], "/"), true
			}
		}
	}
	return "", false
}

// unescapeModule undoes the module cache's case encoding: "!p" is "P".
func unescapeModule(s string) string {
	if !strings.Contains(s, "!") {
		return s
	}
	var b strings.Builder
	bang := false
	for _, r := range s {
		switch {
		case bang:
			b.WriteRune(unicode.ToUpper(r))
			bang = false
		case r == '!':
			bang = true
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// PackagePath returns the import path of the package of the function
// named fn as the runtime names it ("github.com/supranational/blst/bindings/go"
// for "github.com/supranational/blst/bindings/go.(*P2Affine).Compress",
// "gopkg.in/yaml.v3" for "gopkg.in/yaml%2ev3.(*parser).node"), or "" for
// a name that is not a Go function's.
func PackagePath(fn string) string {
	s := fn
	if i := strings.IndexByte(s, '['); i >= 0 {
		s = s[:i] // type arguments may hold other packages' paths
	}
	slash := strings.LastIndexByte(s, '/')
	dot := strings.IndexByte(s[slash+1:], '.')
	if dot <= 0 || strings.ContainsAny(s[:slash+1+dot], "()* ") {
		return ""
	}
	return strings.ReplaceAll(s[:slash+1+dot], "%2e", ".")
}

func isWindowsAbs(p string) bool {
	return len(p) > 2 && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}
