// Package childtest lets a test binary serve as the child process its
// own tests start: its TestMain hands the process to the child's work
// when the environment asks for it (Main), and a test starts the binary
// again with that environment (Run).
package childtest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// Main is the TestMain of a test binary that serves as its own tests'
// child: when serving reports that this process is such a child, Main
// calls serve and exits, 0 when it succeeds, 1 after printing its error
// on stderr (after "name: " when name is set); otherwise Main runs the
// tests and exits with their code.
func Main(m *testing.M, name string, serving func() bool, serve func() error) {
	if serving() {
		if err := serve(); err != nil {
			if name != "" {
				fmt.Fprint(os.Stderr, name+": ")
			}
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// maxStderr bounds how much of a failed child's stderr Run reports: its
// end.
const maxStderr = 8 << 10

// Run runs this test binary again with no test selected (-test.run=^$,
// so that its TestMain serves the child: Main), in this process's
// environment without the variables drop names, plus env ("NAME=value").
// It returns what the child wrote on stdout and stderr; a child that
// fails fails t, with the end of its stderr.
func Run(t testing.TB, env []string, drop ...string) (stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(drop, name)
	})
	cmd.Env = append(cmd.Env, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		tail := errb.String()
		if len(tail) > maxStderr {
			tail = "..." + tail[len(tail)-maxStderr:]
		}
		t.Fatalf("child %q: %v\n%s", env, err, tail)
	}
	return out.String(), errb.String()
}
