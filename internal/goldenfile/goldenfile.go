// Package goldenfile compares test output with golden files, the way the
// memprof packages' tests share: with update set (each test package's
// -update flag) it rewrites the file instead.
package goldenfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Check compares got with the golden file at path, or writes got there when
// update is true. On a mismatch it writes got to a temporary file and names
// both, so they can be diffed; nothing is written into the source tree.
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
	if !bytes.Equal(got, want) {
		gotPath := filepath.Join(t.TempDir(), filepath.Base(path)+".got")
		if err := os.WriteFile(gotPath, got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Errorf("%s differs from the golden file; got written to %s (diff them, or run go test -update if the change is intended)", path, gotPath)
	}
}
