package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestReportOutErrors: an error while the review is written names --out
// (and the file being written), never the temporary directory beside it
// (.review.tmp-N), and leaves nothing behind: a directory that refuses the
// temporary directory, and, in the memprof binary (buildCLI) under a file-size limit,
// a write that fails halfway (EFBIG, as a full disk fails with ENOSPC).
func TestReportOutErrors(t *testing.T) {
	t.Parallel() // changes no environment, directory or package variable; its own directories, the memprof binary in a shell of its own
	if runtime.GOOS != "linux" {
		t.Skip("needs sh's ulimit")
	}
	fixture := "../../fixtures/results/results.json"
	ro, _ := unwritableDir(t)
	roWhy := ""
	if ro != "" {
		// What the kernel says when asked for the temporary directory.
		err := os.Mkdir(filepath.Join(ro, "probe-by-test"), 0o755)
		if err == nil {
			t.Fatalf("%s accepted a directory", ro)
		}
		roWhy = err.(*os.PathError).Err.Error()
	}
	type outCase struct {
		name string
		run  func(t *testing.T, out string) (code int, stderr string)
		out  func(t *testing.T) string
		want string // stderr, OUT the --out path, FILE any file of the review
	}
	tests := []outCase{
		{"directory refuses the review", func(t *testing.T, out string) (int, string) {
			code, _, stderr := runCLI(t, "report", "--from", fixture, "--out", out)
			return code, stderr
		}, func(t *testing.T) string {
			if ro == "" {
				t.Skip("no directory refuses writes here")
			}
			return filepath.Join(ro, "review")
		}, "memprof report: writing review to OUT: " + roWhy + "\n"},
		{"a write fails halfway", func(t *testing.T, out string) (int, string) {
			if testing.Short() {
				t.Skip("runs the memprof binary")
			}
			bin := buildCLI(t)
			// 64 blocks of 512 bytes: the charts fit, results.json does not.
			sh := exec.Command("sh", "-c", `trap "" XFSZ; ulimit -f 64; exec "$0" report --from "$1" --out "$2"`, bin, fixture, out)
			var stderr strings.Builder
			sh.Stderr = &stderr
			err := sh.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			return code, stderr.String()
		}, func(t *testing.T) string { return filepath.Join(t.TempDir(), "review") },
			"memprof report: writing review to OUT: FILE: file too large\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := tt.out(t)
			code, stderr := tt.run(t, out)
			want := strings.ReplaceAll(tt.want, "OUT", out)
			if head, tail, ok := strings.Cut(want, "FILE"); ok && strings.HasPrefix(stderr, head) && strings.HasSuffix(stderr, tail) &&
				!strings.Contains(strings.TrimSuffix(strings.TrimPrefix(stderr, head), tail), "/") {
				want = stderr // any one file of the review, by its name
			}
			if code != exitFailure || stderr != want {
				t.Errorf("got exit %d, stderr %q; want exit 1, %q", code, stderr, want)
			}
			if strings.Contains(stderr, ".tmp-") {
				t.Errorf("stderr names a temporary directory: %q", stderr)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("--out %s exists after the failure (%v)", out, err)
			}
			if left, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".review.tmp-*")); len(left) > 0 {
				t.Errorf("left %v behind", left)
			}
		})
	}
}
