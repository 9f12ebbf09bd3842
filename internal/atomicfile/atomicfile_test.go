package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileReplacesAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	for _, content := range []string{"first", "second, longer"} {
		if err := WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != content {
			t.Errorf("got %q, want %q", got, content)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("got %d entries in %s, want 1 (no temporary files left)", len(entries), dir)
	}
}

func TestWriteFileMissingDirFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "dir", "f")
	if err := WriteFile(path, []byte("x"), 0o644); err == nil {
		t.Fatal("got nil error writing into a missing directory")
	}
}

func TestWriteFileDeviceInPlace(t *testing.T) {
	before, err := os.Stat(os.DevNull)
	if err != nil {
		t.Skip("no", os.DevNull)
	}
	if err := WriteFile(os.DevNull, []byte("discarded"), 0o644); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	if after.Mode() != before.Mode() || after.Mode().IsRegular() {
		t.Errorf("%s: mode %v after writing, want the device's %v", os.DevNull, after.Mode(), before.Mode())
	}
}

func TestWriteFileDirectoryFails(t *testing.T) {
	if err := WriteFile(t.TempDir(), []byte("x"), 0o644); err == nil {
		t.Fatal("got nil error writing over a directory")
	}
}
