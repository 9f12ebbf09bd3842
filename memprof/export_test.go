package memprof

// SizeClass is sizeClass, for the tests outside the package.
var SizeClass = sizeClass

// childLookup and childTasks, when set (ServeInTests), are what a child
// process of this test binary serves besides testCases and testTasks.
var (
	childLookup func(name string) (Case, error)
	childTasks  []Task
)

// ServeInTests makes a child process of this test binary serve the cases
// lookup finds, after testCases, and tasks: for the tests outside the
// package (the benchmarks' suites and floor), set before TestMain runs.
func ServeInTests(lookup func(name string) (Case, error), tasks ...Task) {
	childLookup, childTasks = lookup, tasks
}
