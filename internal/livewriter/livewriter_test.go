package livewriter

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

func TestWriter(t *testing.T) {
	cause := errors.New("interrupted")
	ctx, cancel := context.WithCancelCause(context.Background())
	var buf bytes.Buffer
	w := Writer{ctx, &buf}
	if n, err := w.Write([]byte("before")); n != 6 || err != nil {
		t.Fatalf("before the interrupt: wrote %d, %v; want 6, nil", n, err)
	}
	cancel(cause)
	if n, err := w.Write([]byte("after")); n != 0 || !errors.Is(err, cause) {
		t.Fatalf("after the interrupt: wrote %d, %v; want 0 and the cause", n, err)
	}
	if buf.String() != "before" {
		t.Errorf("got %q, want only what came before the interrupt", buf.String())
	}
}
