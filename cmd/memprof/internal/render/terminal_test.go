package render

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/memprof/memprof/internal/livewriter"
)

// wrapper writes into w, as the CLI's standard output writer does.
type wrapper struct{ w io.Writer }

func (p wrapper) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p wrapper) Unwrap() io.Writer           { return p.w }

// loop wraps itself.
type loop struct{}

func (loop) Write(b []byte) (int, error) { return len(b), nil }
func (l loop) Unwrap() io.Writer         { return l }

// TestFile: File finds the *os.File beneath livewriter.Writers and
// Unwrappers in any order, and nothing beneath other writers or a writer
// that wraps itself.
func TestFile(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx := context.Background()
	for _, tt := range []struct {
		name string
		w    io.Writer
		want *os.File
	}{
		{"file", f, f},
		{"live", livewriter.Writer{Ctx: ctx, W: f}, f},
		{"live over unwrapper", livewriter.Writer{Ctx: ctx, W: wrapper{f}}, f},
		{"unwrapper over live", wrapper{livewriter.Writer{Ctx: ctx, W: wrapper{f}}}, f},
		{"buffer", livewriter.Writer{Ctx: ctx, W: wrapper{&bytes.Buffer{}}}, nil},
		{"nil file", wrapper{(*os.File)(nil)}, nil},
		{"loop", loop{}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := File(tt.w)
			if got != tt.want || ok != (tt.want != nil) {
				t.Errorf("got %v, %v; want %v, %v", got, ok, tt.want, tt.want != nil)
			}
			if IsTerminal(tt.w) {
				t.Errorf("IsTerminal: got true for a regular file or none, want false")
			}
		})
	}
}

// sized is a buffer that says its width.
type sized struct {
	bytes.Buffer
	columns int
}

func (s *sized) Columns() int { return s.columns }

// TestTerminalWidthSized: a Sized writer beneath the layers gives the
// width, before $COLUMNS; without one, $COLUMNS does, then DefaultWidth.
func TestTerminalWidthSized(t *testing.T) {
	t.Setenv("COLUMNS", "97")
	ctx := context.Background()
	for _, tt := range []struct {
		name string
		w    io.Writer
		want int
	}{
		{"sized", &sized{columns: 61}, 61},
		{"sized beneath layers", wrapper{livewriter.Writer{Ctx: ctx, W: wrapper{&sized{columns: 173}}}}, 173},
		{"buffer", livewriter.Writer{Ctx: ctx, W: wrapper{&bytes.Buffer{}}}, 97},
		{"loop", loop{}, 97},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := TerminalWidth(tt.w); got != tt.want {
				t.Errorf("got %d, want %d", got, tt.want)
			}
		})
	}
	t.Setenv("COLUMNS", "")
	if got := TerminalWidth(&bytes.Buffer{}); got != DefaultWidth {
		t.Errorf("without $COLUMNS: got %d, want DefaultWidth %d", got, DefaultWidth)
	}
}
