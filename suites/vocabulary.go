package suites

import "github.com/memprof/memprof/memprof"

// Vocabulary returns the registry's names (Types, Libs, Reprs, Layouts,
// Schemes and OpNames) for validating results files: memprof reads them,
// but knows no library, so the names it checks come from here. The lists
// are the package's own; callers must not modify them.
func Vocabulary() *memprof.Vocabulary {
	return &memprof.Vocabulary{Types: Types, Libs: Libs, Reprs: Reprs, Layouts: Layouts, Schemes: Schemes, Ops: OpNames}
}
