package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/olekukonko/tablewriter/pkg/twwidth"
	"golang.org/x/sys/unix"

	"github.com/memprof/memprof/cmd/memprof/internal/render"
)

// openPTY opens a pseudo-terminal of cols columns: its master, which
// reads what is written to the slave, and its slave, a terminal. It skips
// the test where the system has none.
func openPTY(t *testing.T, cols int) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { master.Close() })
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetUint32(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("numbering the pseudo-terminal: %v", err)
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("no /dev/pts: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { slave.Close() })
	if err := unix.IoctlSetWinsize(int(slave.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 50, Col: uint16(cols)}); err != nil {
		t.Fatalf("sizing the pseudo-terminal: %v", err)
	}
	return master, slave
}

// runOnPTY runs the CLI with its standard output a terminal of cols
// columns and returns its exit code, what the terminal showed (without
// the line discipline's carriage returns) and stderr.
func runOnPTY(t *testing.T, cols int, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	master, slave := openPTY(t, cols)
	var out bytes.Buffer
	done := make(chan struct{})
	go func() {
		// Reading the master ends with EIO once the slave is closed.
		io.Copy(&out, master)
		close(done)
	}()
	var errb bytes.Buffer
	code = run(context.Background(), args, slave, &errb)
	slave.Close()
	<-done
	return code, strings.ReplaceAll(out.String(), "\r\n", "\n"), errb.String()
}

// TestWidthFromTerminal: with standard output a terminal (a
// pseudo-terminal, $COLUMNS unset), show fits the terminal's width,
// through every writer the CLI wraps standard output in, and uses it
// where it is wider than the default.
func TestWidthFromTerminal(t *testing.T) {
	t.Setenv("COLUMNS", "")
	for _, cols := range []int{80, 120, 200} {
		t.Run(fmt.Sprint(cols), func(t *testing.T) {
			code, stdout, stderr := runOnPTY(t, cols, "show", "../../fixtures/docs/signature.json", "--type", "Signature")
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			widest := 0
			for _, line := range strings.Split(stdout, "\n") {
				w := twwidth.Width(line)
				widest = max(widest, w)
				if w > cols {
					t.Errorf("a line is %d columns, wider than the terminal's %d: %q", w, cols, line)
				}
			}
			if cols > render.DefaultWidth && widest <= render.DefaultWidth {
				t.Errorf("widest line is %d columns: the table does not use the terminal's %d (got at most the default %d)", widest, cols, render.DefaultWidth)
			}
		})
	}
}

// TestFileThroughLayers: render.File finds the terminal beneath the
// writers run wraps standard output in.
func TestFileThroughLayers(t *testing.T) {
	_, slave := openPTY(t, 100)
	for _, tt := range []struct {
		name string
		w    io.Writer
	}{
		{"file", slave},
		{"stdout writer", &stdoutWriter{w: slave}},
		{"live writer", (&invocation{ctx: context.Background()}).live(&stdoutWriter{w: slave})},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if f, ok := render.File(tt.w); !ok || f != slave {
				t.Errorf("File: got %v, %v; want the terminal", f, ok)
			}
			if !render.IsTerminal(tt.w) {
				t.Errorf("IsTerminal: got false, want true")
			}
			if got := render.TerminalWidth(tt.w); got != 100 {
				t.Errorf("TerminalWidth: got %d, want 100", got)
			}
		})
	}
}
