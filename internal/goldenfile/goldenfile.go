// Package goldenfile compares test output with golden files, the way the
// memprof packages' tests share: with update set (each test package's
// -update flag) it rewrites the file instead.
package goldenfile

import (
	"bytes"
	"os"
	"testing"
)

// Check compares got with the golden file at path, or writes got there when
// update is true. On a mismatch it writes got to path+".got" beside the
// golden file (git ignores *.got), where it survives the test for the
// developer to diff, as x/perf's tests do; a match removes a stale .got.
func Check(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	gotPath := path + ".got"
	if bytes.Equal(got, want) {
		os.Remove(gotPath)
		return
	}
	if err := os.WriteFile(gotPath, got, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Errorf("%s differs from the golden file; got written to %s (diff %s %s, or run go test -update if the change is intended)", path, gotPath, path, gotPath)
}
