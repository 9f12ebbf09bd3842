package main

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// failingWriter fails every write with err, as a full disk or a closed
// pipe fails writes to standard output.
type failingWriter struct{ err error }

func (w failingWriter) Write(p []byte) (int, error) {
	return 0, &fs.PathError{Op: "write", Path: "/dev/stdout", Err: w.err}
}

// TestStdoutErrors: a command whose standard output cannot be written (a
// full disk) says so and exits 1, whatever it printed; one whose reader
// closed the pipe (memprof list | head) ends quietly with its own code.
func TestStdoutErrors(t *testing.T) {
	results := filepath.Join(t.TempDir(), "results.json")
	if err := os.WriteFile(results, []byte(readFile(t, "../../fixtures/results/results.json")), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		err  error
		code int
		want string // the end of stderr, said once; "": nothing
	}{
		{"list, disk full", []string{"list"}, syscall.ENOSPC, exitFailure, "memprof list: writing to standard output: no space left on device\n"},
		{"list --format json, disk full", []string{"list", "--format", "json"}, syscall.ENOSPC, exitFailure, "memprof list: writing to standard output: no space left on device\n"},
		{"help, disk full", []string{"help"}, syscall.ENOSPC, exitFailure, "memprof help: writing to standard output: no space left on device\n"},
		{"help of a command, disk full", []string{"help", "check"}, syscall.ENOSPC, exitFailure, "memprof help: writing to standard output: no space left on device\n"},
		{"a command's -h, disk full", []string{"compare", "-h"}, syscall.ENOSPC, exitFailure, "memprof compare: writing to standard output: no space left on device\n"},
		{"version, disk full", []string{"version"}, syscall.ENOSPC, exitFailure, "memprof version: writing to standard output: no space left on device\n"},
		{"export, disk full", []string{"export", "--to", "benchfmt", results}, syscall.ENOSPC, exitFailure, "memprof export: writing to standard output: no space left on device\n"},
		{"compare, I/O error", []string{"compare", results, results}, syscall.EIO, exitFailure, "memprof compare: writing to standard output: input/output error\n"},
		{"list, closed pipe", []string{"list"}, syscall.EPIPE, exitOK, ""},
		{"help, closed pipe", []string{"help"}, syscall.EPIPE, exitOK, ""},
		{"export, closed pipe", []string{"export", "--to", "benchfmt", results}, syscall.EPIPE, exitOK, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr lockedBuffer
			code := run(context.Background(), tt.args, failingWriter{tt.err}, &stderr)
			if code != tt.code || !strings.HasSuffix(stderr.String(), tt.want) || (tt.want == "" && stderr.String() != "") ||
				strings.Count(stderr.String(), "standard output") > 1 {
				t.Errorf("got exit %d, stderr %q; want %d, %q", code, stderr.String(), tt.code, tt.want)
			}
		})
	}
}

// TestStdoutErrorsBinary runs the memprof binary (buildCLI) with its standard output
// on /dev/full, and into a pipe whose reader closes it after a line.
func TestStdoutErrorsBinary(t *testing.T) {
	t.Parallel() // changes no environment, directory or package variable; measures, if at all, in children
	if testing.Short() {
		t.Skip("runs the memprof binary")
	}
	if runtime.GOOS != "linux" {
		t.Skip("needs /dev/full")
	}
	bin := buildCLI(t)
	for _, args := range [][]string{{"list"}, {"help"}} {
		t.Run(strings.Join(args, " ")+" > /dev/full", func(t *testing.T) {
			full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
			if err != nil {
				t.Skip(err)
			}
			defer full.Close()
			cmd := exec.Command(bin, args...)
			var stderr strings.Builder
			cmd.Stdout, cmd.Stderr = full, &stderr
			err = cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != exitFailure || !strings.Contains(stderr.String(), "writing to standard output: no space left on device") {
				t.Errorf("got %v, stderr %q; want exit 1 saying the disk is full", err, stderr.String())
			}
		})
		t.Run(strings.Join(args, " ")+" | head -1", func(t *testing.T) {
			script := `"$0" "$@" 2>err.txt | head -1 >/dev/null; cat err.txt`
			sh := exec.Command("sh", append([]string{"-c", script, bin}, args...)...)
			sh.Dir = t.TempDir()
			got, err := sh.CombinedOutput()
			if err != nil || len(got) != 0 {
				t.Errorf("got %v and stderr %q, want nothing on stderr", err, got)
			}
		})
	}
}
