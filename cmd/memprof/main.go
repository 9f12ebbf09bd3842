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
	"os/signal"
	"syscall"

	"github.com/memprof/memprof/memprof"
)

func main() {
	ctx := context.Background()
	if !memprof.ChildRequested() {
		// A measuring child keeps the default: a signal ends it, and its
		// parent removes what it leaves.
		ctx = cancelOnSignal(ctx)
	}
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// cancelOnSignal returns a context cancelled, with an interruption as its
// cause, at the first SIGINT or SIGTERM: the command then stops its
// children, removes its temporary files and writes nothing, and run
// returns 128 + the signal. A second signal exits at once.
func cancelOnSignal(parent context.Context) context.Context {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		first := <-sigs
		cancel(interruption{first})
		<-sigs
		fmt.Fprintln(os.Stderr, "memprof: interrupted")
		code, _ := interruptedExit(ctx)
		os.Exit(code)
	}()
	return ctx
}
