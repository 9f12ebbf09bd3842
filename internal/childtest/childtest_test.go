package childtest

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
)

// childEnv, when set, makes this test binary a child (Main): it prints
// the value and the variable dropEnv, then fails if the value is "fail".
const (
	childEnv = "CHILDTEST_CHILD"
	dropEnv  = "CHILDTEST_DROPPED"
)

func TestMain(m *testing.M) {
	Main(m, "childtest child", func() bool { return os.Getenv(childEnv) != "" }, func() error {
		fmt.Printf("%s %s=%q", os.Getenv(childEnv), dropEnv, os.Getenv(dropEnv))
		if os.Getenv(childEnv) == "fail" {
			return errors.New("asked to fail")
		}
		return nil
	})
}

// TestRun: the child is this binary, serving instead of testing, in the
// environment Run gives it: env added, the variables named dropped.
func TestRun(t *testing.T) {
	t.Setenv(dropEnv, "kept")
	for _, tt := range []struct {
		drop []string
		want string
	}{
		{nil, `hello CHILDTEST_DROPPED="kept"`},
		{[]string{dropEnv}, `hello CHILDTEST_DROPPED=""`},
	} {
		stdout, stderr := Run(t, []string{childEnv + "=hello"}, tt.drop...)
		if stdout != tt.want || stderr != "" {
			t.Errorf("dropping %v: got stdout %q, stderr %q; want %q and nothing", tt.drop, stdout, stderr, tt.want)
		}
	}
}

// fatalTB records Fatalf and ends the goroutine, as testing.T does.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}
func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// TestRunFails: a child that fails fails the test, with its exit status
// and its stderr, which Main starts with the child's name.
func TestRunFails(t *testing.T) {
	tb := &fatalTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		Run(tb, []string{childEnv + "=fail"})
	}()
	<-done
	for _, want := range []string{"exit status 1", "childtest child: asked to fail"} {
		if !strings.Contains(tb.msg, want) {
			t.Errorf("got failure %q, want it to contain %q", tb.msg, want)
		}
	}
}
