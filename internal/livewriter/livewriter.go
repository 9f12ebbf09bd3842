// Package livewriter stops writes once a context is done: an interrupted
// command prints and writes nothing more (no rows of "context canceled",
// no half report).
package livewriter

import (
	"context"
	"io"
)

// Writer passes writes to W until Ctx is done, and refuses them after
// with the context's cause. It retains W; the caller owns it.
type Writer struct {
	Ctx context.Context
	W   io.Writer
}

func (l Writer) Write(p []byte) (int, error) {
	if l.Ctx.Err() != nil {
		return 0, context.Cause(l.Ctx)
	}
	return l.W.Write(p)
}

// Unwrap returns the writer a Writer wraps, or w itself.
func Unwrap(w io.Writer) io.Writer {
	if l, ok := w.(Writer); ok {
		return l.W
	}
	return w
}
