package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/memprof/memprof/internal/testfs"
)

// TestWriteFileNoFollow: the name is written, never what it leads to: a
// link (to a file, dangling, to a directory) is replaced by the new file
// and its target left as it was; a regular file is replaced keeping its
// mode; a directory is refused.
func TestWriteFileNoFollow(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) (path, target string)
		mode  os.FileMode
		err   string
	}{
		{"new name", func(t *testing.T, dir string) (string, string) { return filepath.Join(dir, "p"), "" }, 0o644, ""},
		{"regular file", func(t *testing.T, dir string) (string, string) {
			return testfs.WriteFile(t, filepath.Join(dir, "p"), "old", 0o600), ""
		}, 0o600, ""},
		{"link to a file", func(t *testing.T, dir string) (string, string) {
			target := testfs.WriteFile(t, filepath.Join(dir, "target"), "keep", 0o644)
			return testfs.Symlink(t, target, filepath.Join(dir, "p")), target
		}, 0o644, ""},
		{"dangling link", func(t *testing.T, dir string) (string, string) {
			return testfs.Symlink(t, filepath.Join(dir, "nowhere"), filepath.Join(dir, "p")), filepath.Join(dir, "nowhere")
		}, 0o644, ""},
		{"link to a directory", func(t *testing.T, dir string) (string, string) {
			target := testfs.Mkdir(t, filepath.Join(dir, "d"), 0o755)
			return testfs.Symlink(t, target, filepath.Join(dir, "p")), ""
		}, 0o644, ""},
		{"directory", func(t *testing.T, dir string) (string, string) {
			return testfs.Mkdir(t, filepath.Join(dir, "p"), 0o755), ""
		}, 0, "writing DIR/p: is a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path, target := tt.setup(t, dir)
			var before map[string]string
			if target != "" {
				before = testfs.Snapshot(t, dir)
			}
			err := WriteFileNoFollow(path, []byte("new"), 0o644)
			if tt.err != "" {
				if want := strings.ReplaceAll(tt.err, "DIR", dir); err == nil || err.Error() != want {
					t.Fatalf("got %v, want %s", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			fi, err := os.Lstat(path)
			if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != tt.mode&^umask(t) {
				t.Fatalf("%s: %v, %v; want a regular file of mode %v", path, fi.Mode(), err, tt.mode&^umask(t))
			}
			if b, _ := os.ReadFile(path); string(b) != "new" {
				t.Errorf("%s holds %q, want %q", path, b, "new")
			}
			if target != "" {
				after := testfs.Snapshot(t, dir)
				delete(before, "p")
				delete(after, "p")
				if d := testfs.Diff(after, before); d != "" {
					t.Errorf("beside the name, the write changed:\n%s", d)
				}
			}
		})
	}
}

// umask returns the process's umask, which narrows a new file's mode.
func umask(t *testing.T) os.FileMode {
	t.Helper()
	p := filepath.Join(t.TempDir(), "probe")
	if err := os.WriteFile(p, nil, 0o777); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return 0o777 &^ fi.Mode().Perm()
}

// TestCheckDir: a directory that does not exist is made; one under a
// file is refused, naming it; nothing is left behind.
func TestCheckDir(t *testing.T) {
	dir := t.TempDir()
	if err := CheckDir(filepath.Join(dir, "a", "b")); err != nil {
		t.Errorf("new directory: %v", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "a", "b")); len(entries) != 0 {
		t.Errorf("left %v behind", entries)
	}
	testfs.WriteFile(t, filepath.Join(dir, "f"), "x", 0o644)
	want := "writing " + dir + "/f/p: directory " + dir + "/f/p does not exist (" + dir + "/f is not a directory)"
	if err := CheckDir(filepath.Join(dir, "f", "p")); err == nil || err.Error() != want {
		t.Errorf("under a file: got %v, want %s", err, want)
	}
}
