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
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
