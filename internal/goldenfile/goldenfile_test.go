package goldenfile

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(format string, args ...any) { r.failed = true }
func (r *recorder) Fatalf(format string, args ...any) { r.failed = true; panic("fatal") }
func (r *recorder) Helper()                           {}

func check(t *testing.T, path string, got []byte, update bool) (failed bool) {
	r := &recorder{TB: t}
	defer func() {
		if p := recover(); p != nil && p != "fatal" {
			panic(p)
		}
		failed = r.failed
	}()
	Check(r, path, got, update)
	return r.failed
}

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.txt")
	if !check(t, path, []byte("a"), false) {
		t.Error("missing golden file: got no failure")
	}
	if check(t, path, []byte("a"), true) {
		t.Error("update: got a failure")
	}
	if b, _ := os.ReadFile(path); string(b) != "a" {
		t.Errorf("update wrote %q, want %q", b, "a")
	}
	if check(t, path, []byte("a"), false) {
		t.Error("equal content: got a failure")
	}
	if !check(t, path, []byte("b"), false) {
		t.Error("different content: got no failure")
	}
	if b, err := os.ReadFile(path + ".got"); err != nil || string(b) != "b" {
		t.Errorf("mismatch: %s.got holds %q (%v), want %q beside the golden file", path, b, err, "b")
	}
	if check(t, path, []byte("a"), false) {
		t.Error("equal content again: got a failure")
	}
	if _, err := os.Stat(path + ".got"); !os.IsNotExist(err) {
		t.Errorf("a match left the stale %s.got (%v)", path, err)
	}
}
