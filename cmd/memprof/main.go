// Command memprof measures how much memory BLS12-381 keys, signatures and
// curve points cost per instance under each library and representation,
// what each representation costs in speed, and gates CI on both.
//
// Usage:
//
//	memprof <command> [flags] [arguments]
//
// Run "memprof help" for the list of commands and "memprof <command> -h"
// for one command's flags.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/memprof/memprof/cmd/memprof/internal/interrupt"
	"github.com/memprof/memprof/internal/onexit"
	"github.com/memprof/memprof/memprof"
)

func main() {
	ctx := context.Background()
	if !memprof.ChildRequested() {
		// A measuring child keeps the default: a signal ends it, and its
		// parent removes what it leaves.
		// The first SIGINT or SIGTERM cancels ctx: the command then stops
		// its children, removes its temporary files and writes nothing,
		// and run returns 128 + the signal. A second signal exits at once,
		// having killed the children and removed the temporary
		// directories the first one's cleanup may not have reached.
		ctx = interrupt.OnSignal(ctx, func(code int) {
			onexit.Run()
			fmt.Fprintln(os.Stderr, "memprof: interrupted")
			os.Exit(code)
		})
	}
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}
