// Package interrupt stops a command at SIGINT or SIGTERM: the command's
// context is cancelled with a Cause naming the signal, and the command
// exits as a shell reports it, 128 + the signal's number (130 for SIGINT,
// 143 for SIGTERM).
package interrupt

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// Cause is the cause with which a context of a command stopped by a
// signal is cancelled.
type Cause struct{ Signal os.Signal }

func (c Cause) Error() string { return "interrupted by " + c.Signal.String() }

// ExitCode returns the exit code of a command whose context is done, and
// true: 128 + the number of the signal that caused it, or 130 (as for
// SIGINT) when the cause is not a signal.
func ExitCode(ctx context.Context) (int, bool) {
	if ctx.Err() == nil {
		return 0, false
	}
	var c Cause
	if errors.As(context.Cause(ctx), &c) {
		if s, ok := c.Signal.(syscall.Signal); ok {
			return 128 + int(s), true
		}
	}
	return 128 + int(syscall.SIGINT), true
}

// OnSignal returns a context cancelled, with a Cause, at the first SIGINT
// or SIGTERM; at the second, it calls second with the exit code (the
// caller says so and exits at once).
func OnSignal(parent context.Context, second func(code int)) context.Context {
	ctx, cancel := context.WithCancelCause(parent)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		first := <-sigs
		cancel(Cause{first})
		<-sigs
		code, _ := ExitCode(ctx)
		second(code)
	}()
	return ctx
}
